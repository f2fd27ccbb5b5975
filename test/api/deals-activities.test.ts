import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { assertRefusesAll, listedBadBodies } from '../helpers/support-fixtures.ts';
import { breakOutbox, seedDeal, seedOrg } from './deals.fixtures.ts';

const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

for (const engine of engines()) {
  describe(`/deals/{id}/activities [${engine}]`, () => {
    let h: Harness;
    const clock = new FixedClock(T0);
    before(async () => {
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    async function dealOf(a: TestAccount) {
      const org = await seedOrg(h, a.accountId);
      return { org, deal: await seedDeal(h, a.accountId, { org_id: org, title: 'Pilot', created_at: T0 - 86_400_000 }) };
    }
    const post = (a: TestAccount, dealId: number, body: unknown, headers?: Record<string, string>) =>
      call(h, 'POST', `/api/v1/deals/${dealId}/activities`, { key: a.key, body, headers });
    const lastActivity = async (id: number) =>
      Number((await h.db.selectFrom('deals').select('last_activity_at').where('id', '=', id).executeTakeFirstOrThrow()).last_activity_at);

    test('logs a note: 201, Location, exact body, last_activity_at, and one deal.activity.created with the deal org', async () => {
      const a = await createTestAccount(h);
      const { org, deal } = await dealOf(a);
      clock.set(T0);
      const res = await post(a, deal, { source_app: 'billing', message: 'Invoice sent' });
      assert.equal(res.statusCode, 201, res.body);
      const activity = res.json();
      const expected = {
        id: activity.id,
        deal_id: deal,
        event_type: 'note',
        message: 'Invoice sent',
        outcome: null,
        source_app: 'billing',
        external_reference: null,
        metadata: null,
        user_id: null,
        created_at: iso(T0),
      };
      assert.deepEqual(activity, expected);
      assert.equal(res.headers.location, `/api/v1/deals/${deal}/activities/${activity.id}`);
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), expected);
      assert.equal(await lastActivity(deal), T0);
      const events = await outboxOf(h.db, a.accountId);
      assert.deepEqual(events, [
        {
          event_type: 'deal.activity.created',
          org_id: org,
          payload: {
            id: events[0].payload.id,
            event_type: 'deal.activity.created',
            org_id: org,
            timestamp: iso(T0),
            deal_id: deal,
            entity_type: 'deal_activity',
            entity_id: activity.id,
            activity: { id: activity.id, event_type: 'note', message: 'Invoice sent' },
          },
        },
      ]);
      assert.ok((await h.lastWake())?.includes(events[0].payload.id as string), 'the dispatcher, woken after the commit, finds the event');
    });

    test('takes every optional field; metadata_json comes back as metadata', async () => {
      const a = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const metadata = { call_id: 'c-1', duration_s: 310, tags: ['renewal', 'ü'], nested: { ok: true, none: null } };
      const res = await post(a, deal, {
        source_app: 'dialer',
        message: 'Discussed renewal',
        activity_kind: 'call',
        outcome: 'success',
        external_reference: 'CALL-9',
        metadata_json: metadata,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(res.json(), {
        id: res.json().id,
        deal_id: deal,
        event_type: 'call',
        message: 'Discussed renewal',
        outcome: 'success',
        source_app: 'dialer',
        external_reference: 'CALL-9',
        metadata,
        user_id: null,
        created_at: iso(clock.now()),
      });
      for (const kind of ['note', 'email', 'call', 'meeting']) {
        for (const outcome of ['success', 'failed', 'skipped']) {
          const r = await post(a, deal, { source_app: 's', message: 'm', activity_kind: kind, outcome });
          assert.deepEqual([r.statusCode, r.json().event_type, r.json().outcome], [201, kind, outcome]);
        }
      }
    });

    test('lists the timeline newest first, sortable by created_at or id both ways, paginated, this deal only', async () => {
      const a = await createTestAccount(h);
      const { org, deal } = await dealOf(a);
      const other = await seedDeal(h, a.accountId, { org_id: org });
      const made: number[] = [];
      for (const at of [T0 + 20, T0 + 10, T0 + 30]) {
        clock.set(at);
        made.push((await post(a, deal, { source_app: 's', message: `at ${at}` })).json().id);
      }
      await post(a, other, { source_app: 's', message: 'elsewhere' });
      const list = async (query: Record<string, string | number> = {}) => {
        const res = await call(h, 'GET', `/api/v1/deals/${deal}/activities`, { key: a.key, query });
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      const [m20, m10, m30] = made;
      const all = await list();
      assert.deepEqual(
        all.data.map((x: any) => x.id),
        [m30, m20, m10],
      );
      assert.deepEqual(all.pagination, { page: 1, per_page: 25, total: 3, pages: 1, has_next: false, has_prev: false });
      assert.deepEqual(
        (await list({ sort: 'created_at', direction: 'asc' })).data.map((x: any) => x.id),
        [m10, m20, m30],
      );
      assert.deepEqual(
        (await list({ sort: 'id', direction: 'asc' })).data.map((x: any) => x.id),
        [m20, m10, m30],
      );
      assert.deepEqual(
        (await list({ sort: 'id', direction: 'desc' })).data.map((x: any) => x.id),
        [m30, m10, m20],
      );
      const p2 = await list({ per_page: 2, page: 2 });
      assert.deepEqual(
        p2.data.map((x: any) => x.id),
        [m10],
      );
      assert.deepEqual(p2.pagination, { page: 2, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true });
      for (const [query, field] of [
        [{ sort: 'message' }, 'sort'],
        [{ direction: 'sideways' }, 'direction'],
        [{ per_page: 0 }, 'per_page'],
      ] as const) {
        const err = assertError(await call(h, 'GET', `/api/v1/deals/${deal}/activities`, { key: a.key, query: query as any }), 422, 'validation_error');
        assert.ok(err.fields[field]);
      }
    });

    test('Idempotency-Key: a replay answers the same body with Idempotent-Replayed and creates nothing', async () => {
      const a = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const body = { source_app: 'billing', message: 'Paid', outcome: 'success' };
      const first = await post(a, deal, body, { 'idempotency-key': 'pay-1' });
      assert.equal(first.statusCode, 201);
      const counts = await tableCounts(h.db);
      const replay = await post(a, deal, body, { 'idempotency-key': 'pay-1' });
      assert.equal(replay.statusCode, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.deepEqual(replay.json(), first.json());
      assert.equal(replay.headers.location, first.headers.location);
      assert.deepEqual(await tableCounts(h.db), counts);
      const rows = await h.db.selectFrom('deal_activities').select('id').where('deal_id', '=', deal).execute();
      assert.equal(rows.length, 1);
      assert.equal((await outboxOf(h.db, a.accountId)).length, 1);
      assertError(await post(a, deal, { ...body, message: 'Other' }, { 'idempotency-key': 'pay-1' }), 422, 'idempotency_key_reused');
      const viaBody = await post(a, deal, { ...body, idempotency_key: 'pay-2' });
      const viaBodyAgain = await post(a, deal, { ...body, idempotency_key: 'pay-2' });
      assert.equal(viaBodyAgain.headers['idempotent-replayed'], 'true');
      assert.deepEqual(viaBodyAgain.json(), viaBody.json());
      assert.equal((await outboxOf(h.db, a.accountId)).length, 2);
    });

    test("absent deals and other accounts' deals are 404 for every route; nothing is written", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const { deal: dealB } = await dealOf(b);
      const activityB = (await post(b, dealB, { source_app: 's', message: 'b' })).json().id;
      const own = (await post(a, deal, { source_app: 's', message: 'a' })).json().id;
      const before = await tableCounts(h.db);
      for (const id of [dealB, 987654321]) {
        assertError(await post(a, id, { source_app: 's', message: 'x' }), 404, 'deal_not_found');
        assertError(await call(h, 'GET', `/api/v1/deals/${id}/activities`, { key: a.key }), 404, 'deal_not_found');
        assertError(await call(h, 'GET', `/api/v1/deals/${id}/activities/${activityB}`, { key: a.key }), 404, 'deal_not_found');
      }
      assertError(await call(h, 'GET', `/api/v1/deals/${deal}/activities/${activityB}`, { key: a.key }), 404, 'deal_activity_not_found');
      assert.equal((await call(h, 'GET', `/api/v1/deals/${deal}/activities/${own}`, { key: a.key })).statusCode, 200);
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('fast-check: malformed bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const base: Record<string, unknown> = { source_app: 'app', message: 'hello' };
      const allowed = ['source_app', 'message', 'activity_kind', 'outcome', 'external_reference', 'metadata_json', 'idempotency_key'];
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 20; i++) deep = { d: deep };
      const bad: [string, unknown][] = [
        ['source_app', ''],
        ['source_app', 1],
        ['source_app', null],
        ['source_app', 'a'.repeat(100_000)],
        ['source_app', '   '],
        ['message', ''],
        ['message', false],
        ['message', null],
        ['message', 'm'.repeat(100_000)],
        ['message', { text: 'hi' }],
        ['message', ' \n '],
        ['activity_kind', 'sms'],
        ['activity_kind', 'NOTE'],
        ['activity_kind', null],
        ['outcome', 'ok'],
        ['outcome', 0],
        ['external_reference', 5],
        ['external_reference', 'r'.repeat(100_000)],
        ['metadata_json', 'text'],
        ['metadata_json', [1, 2]],
        ['metadata_json', null],
        ['metadata_json', deep],
        ['metadata_json', { blob: 'b'.repeat(70_000) }],
        ['idempotency_key', 7],
        ['idempotency_key', ''],
      ];
      await assertRefusesAll(h, listedBadBodies(base, bad, allowed, ['source_app', 'message']), (body) => post(a, deal, body), { numRuns: 50, within: true });
    });

    test('a failure after the insert (outbox down) leaves no activity, no event and last_activity_at as it was', async () => {
      const a = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const was = await lastActivity(deal);
      const before = await tableCounts(h.db);
      const restore = await breakOutbox(h);
      try {
        assertError(await post(a, deal, { source_app: 's', message: 'lost' }, { 'idempotency-key': 'retry-me' }), 500, 'internal_error');
      } finally {
        await restore();
      }
      assert.deepEqual(await tableCounts(h.db), before);
      assert.equal(await lastActivity(deal), was);
      const retried = await post(a, deal, { source_app: 's', message: 'lost' }, { 'idempotency-key': 'retry-me' });
      assert.equal(retried.statusCode, 201, 'the key was released, so a retry runs');
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      const { deal } = await dealOf(a);
      const id = (await post(a, deal, { source_app: 's', message: 'm' })).json().id;
      await assertCommonAuth(h, a, { method: 'POST', url: `/api/v1/deals/${deal}/activities`, scope: 'deals:write', body: { source_app: 's', message: 'm' } });
      await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/deals/${deal}/activities`, scope: ['deals:read', 'deals:write'] });
      await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/deals/${deal}/activities/${id}`, scope: ['deals:read', 'deals:write'] });
      const writer = await a.keyWith(['deals:write']);
      // deals:write lists and creates activities (the scope table), but does not read deals themselves.
      assert.equal((await call(h, 'GET', `/api/v1/deals/${deal}/activities`, { key: writer })).statusCode, 200);
      assertError(await call(h, 'GET', `/api/v1/deals/${deal}`, { key: writer }), 403, 'forbidden');
      assert.equal((await call(h, 'POST', `/api/v1/deals/${deal}/activities`, { key: writer, body: { source_app: 's', message: 'w' } })).statusCode, 201);
      assertError(
        await call(h, 'POST', `/api/v1/deals/${deal}/activities`, { key: await a.keyWith(['read']), body: { source_app: 's', message: 'w' } }),
        403,
        'forbidden',
      );
    });
  });
}
