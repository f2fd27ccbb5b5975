import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { assertRefusesAll, listedBadBodies } from '../helpers/support-fixtures.ts';
import { breakOutbox, historyOf, seedContact, seedOrg, seedUser } from './deals.fixtures.ts';

const T0 = Date.UTC(2026, 10, 20, 9, 30, 0, 123);
const NOW = '2026-11-20T09:30:00.123Z';

/** A deal as POST /deals answers one created now: open, with no optional field set unless `deal` sets it. */
const createdNow = (deal: { id: number; org_id: number; title: string } & Record<string, unknown>) => ({
  contact_id: null,
  owner_user_id: null,
  status: 'new',
  value: null,
  currency: null,
  payment_customer_id: null,
  next_followup_at: null,
  lost_reason: null,
  closed_at: null,
  closed_by_user_id: null,
  last_activity_at: NOW,
  created_at: NOW,
  updated_at: NOW,
  ...deal,
});

for (const engine of engines()) {
  describe(`POST /deals [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(T0) });
    });
    after(() => h.close());

    test('creates a new deal: 201, Location, defaults, history from null and exactly one deal.created', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const res = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'Pilot' } });
      assert.equal(res.statusCode, 201, res.body);
      const deal = res.json();
      const expected = createdNow({ id: deal.id, org_id: org, title: 'Pilot' });
      assert.deepEqual(deal, expected);
      assert.equal(res.headers.location, `/api/v1/deals/${deal.id}`);
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), expected);
      assert.deepEqual(await historyOf(h, deal.id), [{ from_status: null, to_status: 'new', changed_by_user_id: null, changed_at: T0 }]);
      const events = await outboxOf(h.db, a.accountId);
      assert.equal(events.length, 1);
      assert.match(events[0].payload.id, /^evt_/);
      assert.deepEqual(events[0], {
        event_type: 'deal.created',
        org_id: org,
        payload: { id: events[0].payload.id, event_type: 'deal.created', org_id: org, timestamp: NOW, deal_id: deal.id, deal: expected },
      });
      assert.ok((await h.lastWake())?.includes(events[0].payload.id), 'the dispatcher, woken after the commit, finds the event');
      const row = await h.db.selectFrom('deals').select(['last_activity_at', 'title_lc']).where('id', '=', deal.id).executeTakeFirstOrThrow();
      assert.deepEqual({ ...row, last_activity_at: Number(row.last_activity_at) }, { last_activity_at: T0, title_lc: 'pilot' });
    });

    test('takes every optional field; value as string or number; currency upper-cased', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const owner = await seedUser(h, a.accountId);
      const contact = await seedContact(h, a.accountId, org, 'pat@acme.io');
      const body = {
        org_id: org,
        title: 'Expansion',
        status: 'proposal',
        contact_id: contact,
        owner_user_id: owner,
        value: '1250.5',
        currency: 'eur',
        payment_customer_id: 'cus_42',
        next_followup_at: '2026-12-01T10:00:00',
        idempotency_key: 'create-1',
      };
      const res = await call(h, 'POST', '/api/v1/deals', { key: a.key, body });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(
        res.json(),
        createdNow({
          id: res.json().id,
          org_id: org,
          title: 'Expansion',
          contact_id: contact,
          owner_user_id: owner,
          status: 'proposal',
          value: '1250.50',
          currency: 'EUR',
          payment_customer_id: 'cus_42',
          next_followup_at: '2026-12-01T10:00:00.000Z',
        }),
      );
      for (const [value, text] of [
        [99.99, '99.99'],
        [0, '0.00'],
        ['7', '7.00'],
        [12.5, '12.50'],
        ['9999999999999.99', '9999999999999.99'],
        [null, null],
      ] as const) {
        const r = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'V', value } });
        assert.equal(r.statusCode, 201, r.body);
        assert.equal(r.json().value, text, `value ${value}`);
      }
      const dated = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'D', next_followup_at: '2026-12-24' } });
      assert.equal(dated.json().next_followup_at, '2026-12-24T00:00:00.000Z');
    });

    test('created already won or lost: closed now by nobody, deal.created then deal.won / deal.lost', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const won = (await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'Signed', status: 'won' } })).json();
      assert.equal(won.closed_at, NOW);
      assert.equal(won.closed_by_user_id, null);
      const reason = { code: 'price', label: 'Too expensive' };
      const lostRes = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'Gone', status: 'lost', lost_reason: reason } });
      assert.equal(lostRes.statusCode, 201, lostRes.body);
      const lost = lostRes.json();
      assert.deepEqual(lost.lost_reason, reason);
      assert.equal(lost.closed_at, NOW);
      const events = await outboxOf(h.db, a.accountId);
      assert.deepEqual(
        events.map((e) => [e.event_type, e.payload.deal_id]),
        [
          ['deal.created', won.id],
          ['deal.won', won.id],
          ['deal.created', lost.id],
          ['deal.lost', lost.id],
        ],
      );
      assert.deepEqual(events[1].payload, { id: events[1].payload.id, event_type: 'deal.won', org_id: org, timestamp: NOW, deal_id: won.id, deal: won });
      assert.deepEqual(events[3].payload, {
        id: events[3].payload.id,
        event_type: 'deal.lost',
        org_id: org,
        timestamp: NOW,
        deal_id: lost.id,
        deal: lost,
        lost_reason: reason,
      });
      assert.deepEqual(await historyOf(h, lost.id), [{ from_status: null, to_status: 'lost', changed_by_user_id: null, changed_at: T0 }]);
    });

    test('semantic refusals (422) and ids of other accounts (404) change nothing', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const otherOrg = await seedOrg(h, a.accountId, 'Other');
      const orgB = await seedOrg(h, b.accountId);
      const userB = await seedUser(h, b.accountId);
      const contactB = await seedContact(h, b.accountId, orgB, 'x@b.io');
      const contactOther = await seedContact(h, a.accountId, otherOrg, 'y@a.io');
      const before = await tableCounts(h.db);
      const cases: [object, number, string, string?][] = [
        [{ org_id: org, title: 'X', lost_reason: { code: 'c', label: 'l' } }, 422, 'validation_error', 'lost_reason'],
        [{ org_id: org, title: 'X', status: 'won', lost_reason: { code: 'c', label: 'l' } }, 422, 'validation_error', 'lost_reason'],
        [{ org_id: org, title: '   ' }, 422, 'validation_error', 'title'],
        [{ org_id: org, title: 'X', contact_id: contactOther }, 422, 'validation_error', 'contact_id'],
        [{ org_id: orgB, title: 'X' }, 404, 'org_not_found'],
        [{ org_id: 987654321, title: 'X' }, 404, 'org_not_found'],
        [{ org_id: org, title: 'X', owner_user_id: userB }, 404, 'user_not_found'],
        [{ org_id: org, title: 'X', contact_id: contactB }, 404, 'contact_not_found'],
      ];
      for (const value of ['1.234', '-1', -0.01, 'abc', '1e3', '', ' 5', '10000000000000', 1e21, 0.1 + 0.2]) {
        cases.push([{ org_id: org, title: 'X', value }, 422, 'validation_error', 'value']);
      }
      for (const next_followup_at of ['2026-02-30', 'tomorrow', '2026-11-20T24:00:00Z', '']) {
        cases.push([{ org_id: org, title: 'X', next_followup_at }, 422, 'validation_error', 'next_followup_at']);
      }
      for (const [body, status, code, field] of cases) {
        const err = assertError(await call(h, 'POST', '/api/v1/deals', { key: a.key, body }), status, code);
        if (field) assert.ok(err.fields?.[field], `${JSON.stringify(body)} names ${field}: ${JSON.stringify(err.fields)}`);
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('fast-check: malformed bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const base: Record<string, unknown> = { org_id: org, title: 'Valid' };
      const allowed = [
        'org_id',
        'title',
        'status',
        'contact_id',
        'owner_user_id',
        'value',
        'currency',
        'payment_customer_id',
        'next_followup_at',
        'lost_reason',
        'idempotency_key',
      ];
      const big = 'x'.repeat(100_000);
      let deep: unknown = 'leaf';
      for (let i = 0; i < 200; i++) deep = { n: deep };
      const bad: [string, unknown][] = [
        ['org_id', 'one'],
        ['org_id', -1],
        ['org_id', 0],
        ['org_id', 1.5],
        ['org_id', null],
        ['org_id', true],
        ['org_id', {}],
        ['org_id', 2 ** 60],
        ['title', ''],
        ['title', 7],
        ['title', null],
        ['title', big],
        ['title', ['a']],
        ['title', deep],
        ['status', 'open'],
        ['status', 'WON'],
        ['status', 1],
        ['status', null],
        ['value', true],
        ['value', {}],
        ['value', []],
        ['value', 'ten'],
        ['value', deep],
        ['currency', 'EURO'],
        ['currency', 'E1R'],
        ['currency', 12],
        ['currency', ''],
        ['currency', big],
        ['next_followup_at', 5],
        ['next_followup_at', 'soon'],
        ['next_followup_at', big],
        ['lost_reason', 'price'],
        ['lost_reason', { code: '', label: 'x' }],
        ['lost_reason', { code: 'x' }],
        ['lost_reason', { code: 1, label: 'x' }],
        ['lost_reason', { code: 'x', label: 'y', extra: deep }],
        ['contact_id', 'c'],
        ['contact_id', 0],
        ['owner_user_id', -5],
        ['owner_user_id', 'me'],
        ['payment_customer_id', ''],
        ['payment_customer_id', 3],
      ];
      const before = await tableCounts(h.db);
      await assertRefusesAll(h, listedBadBodies(base, bad, allowed, ['org_id', 'title']), (body) => call(h, 'POST', '/api/v1/deals', { key: a.key, body }), {
        numRuns: 50,
        within: true,
      });
      for (const raw of ['{"org_id":', 'null', '[]', '"text"']) {
        assertError(await call(h, 'POST', '/api/v1/deals', { key: a.key, body: raw }), 422, 'validation_error');
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('a failure after the insert (outbox down) rolls everything back', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const before = await tableCounts(h.db);
      const restore = await breakOutbox(h);
      try {
        assertError(await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'Doomed', status: 'won' } }), 500, 'internal_error');
      } finally {
        await restore();
      }
      assert.deepEqual(await tableCounts(h.db), before);
      assert.equal((await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org, title: 'Works again' } })).statusCode, 201);
    });

    test('common authentication and scope checks: only full access', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      await assertCommonAuth(h, a, { method: 'POST', url: '/api/v1/deals', scope: '*', body: { org_id: org, title: 'Auth' } });
      assertError(
        await call(h, 'POST', '/api/v1/deals', { key: await a.keyWith(['deals:write', 'deals:read']), body: { org_id: org, title: 'X' } }),
        403,
        'forbidden',
      );
    });
  });
}
