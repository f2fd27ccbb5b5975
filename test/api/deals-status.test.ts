import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { breakOutbox, historyOf, OPEN, seedOrg, seedUser, STATUSES } from './deals.fixtures.ts';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

for (const engine of engines()) {
  describe(`PATCH /deals/{id} [${engine}]`, () => {
    let h: Harness;
    const clock = new FixedClock(T0);
    before(async () => {
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    async function create(a: TestAccount, body: Record<string, unknown>) {
      const res = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { title: 'Deal', ...body } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }
    const patch = (a: TestAccount, id: number, body: unknown) => call(h, 'PATCH', `/api/v1/deals/${id}`, { key: a.key, body });
    const eventsAfter = async (a: TestAccount, n: number) => (await outboxOf(h.db, a.accountId)).slice(n);

    test('every move from an open status is allowed; won and lost emit, open moves do not; history records each', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      for (const from of OPEN) {
        for (const to of STATUSES.filter((s) => s !== from)) {
          clock.set(T0);
          const deal = await create(a, { org_id: org, status: from });
          const seen = (await outboxOf(h.db, a.accountId)).length;
          clock.set(T0 + 60_000);
          const res = await patch(a, deal.id, { status: to });
          assert.equal(res.statusCode, 200, `${from} → ${to}: ${res.body}`);
          const moved = res.json();
          const closed = to === 'won' || to === 'lost';
          assert.deepEqual(moved, {
            ...deal,
            status: to,
            updated_at: iso(T0 + 60_000),
            closed_at: closed ? iso(T0 + 60_000) : null,
            closed_by_user_id: null,
          });
          assert.deepEqual(
            (await historyOf(h, deal.id)).map((r) => [r.from_status, r.to_status, r.changed_at]),
            [
              [null, from, T0],
              [from, to, T0 + 60_000],
            ],
          );
          const events = await eventsAfter(a, seen);
          if (!closed) {
            assert.deepEqual(events, [], `${from} → ${to} emits nothing`);
            continue;
          }
          const payload: Record<string, unknown> = {
            id: events[0]?.payload.id,
            event_type: `deal.${to}`,
            org_id: org,
            timestamp: iso(T0 + 60_000),
            deal_id: deal.id,
            deal: moved,
          };
          assert.equal('lost_reason' in events[0].payload, false, 'no lost_reason key when none was given');
          assert.deepEqual(events, [{ event_type: `deal.${to}`, org_id: org, payload }]);
          assert.ok((await h.lastWake())?.includes(events[0].payload.id as string), 'the dispatcher, woken after the commit, finds the event');
        }
      }
    });

    test('a closed deal reopens to any open status, clearing closed_at, closed_by_user_id and lost_reason, without an event', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      for (const from of ['won', 'lost'] as const) {
        for (const to of OPEN) {
          clock.set(T0);
          const body = from === 'lost' ? { org_id: org, status: from, lost_reason: { code: 'timing', label: 'Bad timing' } } : { org_id: org, status: from };
          const deal = await create(a, body);
          const seen = (await outboxOf(h.db, a.accountId)).length;
          clock.set(T0 + 5000);
          const res = await patch(a, deal.id, { status: to });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json(), { ...deal, status: to, closed_at: null, closed_by_user_id: null, lost_reason: null, updated_at: iso(T0 + 5000) });
          assert.deepEqual(
            (await historyOf(h, deal.id)).map((r) => [r.from_status, r.to_status]),
            [
              [null, from],
              [from, to],
            ],
          );
          assert.deepEqual(await eventsAfter(a, seen), []);
        }
      }
    });

    test('any deal may be marked won or lost (the specification: "any deal"), closed deals included: won ↔ lost directly', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      clock.set(T0);
      const deal = await create(a, { org_id: org, status: 'won' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      clock.set(T0 + 1000);
      const lost = await patch(a, deal.id, { status: 'lost', lost_reason: { code: 'price', label: 'Too expensive' } });
      assert.equal(lost.statusCode, 200, lost.body);
      assert.deepEqual(lost.json(), {
        ...deal,
        status: 'lost',
        closed_at: iso(T0 + 1000),
        closed_by_user_id: null,
        lost_reason: { code: 'price', label: 'Too expensive' },
        updated_at: iso(T0 + 1000),
      });
      clock.set(T0 + 2000);
      const won = await patch(a, deal.id, { status: 'won' });
      assert.equal(won.statusCode, 200, won.body);
      assert.deepEqual(won.json(), {
        ...deal,
        status: 'won',
        closed_at: iso(T0 + 2000),
        closed_by_user_id: null,
        lost_reason: null,
        updated_at: iso(T0 + 2000),
      });
      assert.deepEqual(
        (await historyOf(h, deal.id)).map((r) => [r.from_status, r.to_status]),
        [
          [null, 'won'],
          ['won', 'lost'],
          ['lost', 'won'],
        ],
      );
      const events = await eventsAfter(a, seen);
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['deal.lost', 'deal.won'],
      );
      assert.deepEqual(events[0].payload.lost_reason, { code: 'price', label: 'Too expensive' });
      assert.equal(events[1].payload.deal.status, 'won');
      // Marking a won deal won again is no move: nothing recorded, nothing emitted.
      const again = await patch(a, deal.id, { status: 'won' });
      assert.equal(again.statusCode, 200);
      assert.equal((await historyOf(h, deal.id)).length, 3);
      assert.equal((await eventsAfter(a, seen)).length, 2);
    });

    test('lost_reason: taken when moving to lost and on a lost deal; refused otherwise', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      clock.set(T0);
      const deal = await create(a, { org_id: org, status: 'negotiation' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      const reason = { code: 'competitor', label: 'Chose a competitor' };
      const before = await tableCounts(h.db);
      const refused = assertError(await patch(a, deal.id, { lost_reason: reason }), 422, 'validation_error');
      assert.equal(refused.fields.lost_reason, 'not_allowed');
      assertError(await patch(a, deal.id, { status: 'won', lost_reason: reason }), 422, 'validation_error');
      assert.deepEqual(await tableCounts(h.db), before);
      clock.set(T0 + 1000);
      const lost = (await patch(a, deal.id, { status: 'lost', lost_reason: reason })).json();
      assert.deepEqual(lost.lost_reason, reason);
      const [event] = await eventsAfter(a, seen);
      assert.deepEqual(event.payload, {
        id: event.payload.id,
        event_type: 'deal.lost',
        org_id: org,
        timestamp: iso(T0 + 1000),
        deal_id: deal.id,
        deal: lost,
        lost_reason: reason,
      });
      clock.set(T0 + 2000);
      const relabelled = (await patch(a, deal.id, { lost_reason: { code: 'price', label: 'Price' } })).json();
      assert.deepEqual(relabelled.lost_reason, { code: 'price', label: 'Price' });
      assert.equal(relabelled.updated_at, iso(T0 + 2000));
      assert.equal(relabelled.closed_at, iso(T0 + 1000), 'still closed at the original time');
      assert.equal((await patch(a, deal.id, { lost_reason: null })).json().lost_reason, null);
      assert.equal((await patch(a, deal.id, { status: 'lost' })).statusCode, 200, 'same status is a no-op');
      assert.equal((await eventsAfter(a, seen)).length, 1, 'only the move to lost emitted');
      assert.equal((await historyOf(h, deal.id)).length, 2);
      const reopen = assertError(await patch(a, deal.id, { status: 'new', lost_reason: reason }), 422, 'validation_error');
      assert.equal(reopen.fields.lost_reason, 'not_allowed');
    });

    test('field edits update the deal and updated_at, with no event and no history; nulls clear; an empty change is a no-op', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const owner = await seedUser(h, a.accountId);
      clock.set(T0);
      const deal = await create(a, { org_id: org, value: '10.00', currency: 'USD' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      clock.set(T0 + 9000);
      const res = await patch(a, deal.id, {
        title: 'Renamed',
        owner_user_id: owner,
        value: 2500.5,
        currency: 'gbp',
        next_followup_at: '2026-12-01T09:00:00Z',
      });
      assert.equal(res.statusCode, 200, res.body);
      const edited = {
        ...deal,
        title: 'Renamed',
        owner_user_id: owner,
        value: '2500.50',
        currency: 'GBP',
        next_followup_at: '2026-12-01T09:00:00.000Z',
        updated_at: iso(T0 + 9000),
      };
      assert.deepEqual(res.json(), edited);
      assert.deepEqual((await call(h, 'GET', `/api/v1/deals/${deal.id}`, { key: a.key })).json(), edited);
      assert.equal((await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { q: 'renamed' } })).json().data[0]?.id, deal.id);
      clock.set(T0 + 10_000);
      assert.deepEqual((await patch(a, deal.id, { title: 'Renamed', status: 'new' })).json(), edited, 'nothing changed: updated_at kept');
      assert.deepEqual((await patch(a, deal.id, {})).json(), edited);
      const cleared = (await patch(a, deal.id, { owner_user_id: null, value: null, currency: null, next_followup_at: null })).json();
      assert.deepEqual(cleared, { ...edited, owner_user_id: null, value: null, currency: null, next_followup_at: null, updated_at: iso(T0 + 10_000) });
      assert.deepEqual(await eventsAfter(a, seen), []);
      assert.equal((await historyOf(h, deal.id)).length, 1);
    });

    test("tenancy: another account's deal or owner is 404 and nothing changes", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const deal = await create(a, { org_id: await seedOrg(h, a.accountId) });
      const userB = await seedUser(h, b.accountId);
      const before = await tableCounts(h.db);
      assertError(await call(h, 'PATCH', `/api/v1/deals/${deal.id}`, { key: b.key, body: { status: 'won' } }), 404, 'deal_not_found');
      assertError(await patch(a, 987654321, { status: 'won' }), 404, 'deal_not_found');
      assertError(await patch(a, deal.id, { owner_user_id: userB }), 404, 'user_not_found');
      assertError(await patch(a, deal.id, { owner_user_id: userB, status: 'won' }), 404, 'user_not_found');
      assert.deepEqual(await tableCounts(h.db), before);
      assert.deepEqual((await call(h, 'GET', `/api/v1/deals/${deal.id}`, { key: a.key })).json(), deal);
    });

    test('simultaneous moves to won close the deal once: one history row, one deal.won', async () => {
      const a = await createTestAccount(h);
      const deal = await create(a, { org_id: await seedOrg(h, a.accountId), status: 'negotiation' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => patch(a, deal.id, { status: 'won' })));
      assert.deepEqual(
        answers.map((r) => [r.statusCode, r.json().status]),
        Array.from({ length: 8 }, () => [200, 'won']),
      );
      assert.deepEqual(
        (await eventsAfter(a, seen)).map((e) => e.event_type),
        ['deal.won'],
      );
      assert.deepEqual(
        (await historyOf(h, deal.id)).map((r) => r.to_status),
        ['negotiation', 'won'],
      );
    });

    test('a failure after the update (outbox down) rolls back the status, history and event', async () => {
      const a = await createTestAccount(h);
      const deal = await create(a, { org_id: await seedOrg(h, a.accountId), status: 'proposal' });
      const before = await tableCounts(h.db);
      const restore = await breakOutbox(h);
      try {
        assertError(await patch(a, deal.id, { status: 'won', title: 'Changed' }), 500, 'internal_error');
      } finally {
        await restore();
      }
      assert.deepEqual(await tableCounts(h.db), before);
      assert.deepEqual((await call(h, 'GET', `/api/v1/deals/${deal.id}`, { key: a.key })).json(), deal);
      assert.equal((await historyOf(h, deal.id)).length, 1);
    });

    test('fast-check: malformed bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      const deal = await create(a, { org_id: await seedOrg(h, a.accountId) });
      const allowed = ['status', 'owner_user_id', 'contact_id', 'title', 'value', 'currency', 'next_followup_at', 'lost_reason', 'idempotency_key'];
      let deep: unknown = 1;
      for (let i = 0; i < 100; i++) deep = [deep];
      const bad: [string, unknown][] = [
        ['status', 'closed'],
        ['status', null],
        ['status', 3],
        ['status', ''],
        ['owner_user_id', 'x'],
        ['owner_user_id', 0],
        ['owner_user_id', 1.1],
        ['title', ''],
        ['title', null],
        ['title', 'y'.repeat(100_000)],
        ['title', deep],
        ['value', '12.345'],
        ['value', false],
        ['value', -1],
        ['currency', 'usdx'],
        ['currency', 1],
        ['next_followup_at', '2026-02-29'],
        ['next_followup_at', {}],
        ['lost_reason', []],
        ['lost_reason', { code: 'a' }],
        ['lost_reason', { code: 'a', label: 'b', c: 1 }],
        ['org_id', 1],
        ['contact_id', 'x'],
        ['contact_id', 0],
        ['closed_at', null],
      ];
      const arb = fc.oneof(
        fc.constantFrom(...bad).map(([field, v]) => ({ field, body: { [field]: v } })),
        fc
          .string({ minLength: 1, maxLength: 16 })
          .filter((k) => !allowed.includes(k) && k !== '__proto__')
          .map((k) => ({ field: k, body: { title: 'ok', [k]: 'v' } })),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(arb, async ({ field, body }) => {
          const err = assertError(await patch(a, deal.id, body), 422, 'validation_error');
          assert.ok(
            Object.keys(err.fields ?? {}).some((f) => f === field || f.startsWith(`${field}.`)),
            `${field}: ${JSON.stringify(err.fields)}`,
          );
        }),
        { numRuns: 40 },
      );
      assert.deepEqual(await tableCounts(h.db), before);
      assert.deepEqual((await call(h, 'GET', `/api/v1/deals/${deal.id}`, { key: a.key })).json(), deal);
    });

    test('common authentication and scope checks: only full access', async () => {
      const a = await createTestAccount(h);
      const deal = await create(a, { org_id: await seedOrg(h, a.accountId) });
      await assertCommonAuth(h, a, { method: 'PATCH', url: `/api/v1/deals/${deal.id}`, scope: '*', body: { title: 'x' } });
      assertError(await call(h, 'PATCH', `/api/v1/deals/${deal.id}`, { key: await a.keyWith(['deals:write']), body: { title: 'x' } }), 403, 'forbidden');
      assertError(await patch(a, 0, { title: 'x' }), 422, 'validation_error');
    });
  });
}
