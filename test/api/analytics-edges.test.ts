import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { activity, buildFixture, deal, org, user } from './analytics-fixture.ts';

const ENDPOINTS = ['sales', 'support', 'team', 'customers', 'activity', 'trends'];
const zero = { absolute: 0, percent: 0, note: null };

for (const engine of engines()) {
  describe(`analytics calendar edges, bad input, tenancy [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock('2027-01-10T00:00:00.000Z') });
    });
    after(() => h.close());
    const get = (key: string, endpoint: string, query: Record<string, string | number>) => call(h, 'GET', `/api/v1/analytics/${endpoint}`, { key, query });

    test('a custom range across the year boundary holds ISO week 2026-W53; its previous period is as long, just before', async () => {
      const a = await createTestAccount(h);
      const o = await org(h, a.accountId, 'Edge');
      const add = (created: string) => deal(h, a.accountId, { org: o, owner: null, created, status: 'new' });
      await add('2026-12-01T23:59:59.999'); // before the previous period
      const inPrevious = await add('2026-12-02T00:00:00'); // first instant of the previous period
      await add('2026-12-31T23:59:59.999'); // W53
      await add('2027-01-01T00:00:00'); // W53
      await add('2027-01-04T00:00:00'); // 2027-W01
      await add('2027-01-07T00:00:00'); // just after `to`
      await activity(h, a.accountId, inPrevious, o, 'note', null, '2026-12-27T23:59:59.999'); // last instant of W52
      await activity(h, a.accountId, inPrevious, o, 'call', null, '2026-12-28T00:00:00'); // first instant of W53
      const res = await get(a.key, 'trends', { from: '2026-12-20', to: '2027-01-06', compare: 1 });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.range, 'custom');
      assert.deepEqual(body.period, { from: '2026-12-20T00:00:00.000Z', to: '2027-01-07T00:00:00.000Z' });
      assert.deepEqual(body.previous.period, { from: '2026-12-02T00:00:00.000Z', to: '2026-12-20T00:00:00.000Z' });
      const pick = (w: any) => [w.week, w.week_start, w.deals_created, w.activities];
      assert.deepEqual(body.weeks.map(pick), [
        ['2026-W51', '2026-12-14', 0, 0],
        ['2026-W52', '2026-12-21', 0, 1],
        ['2026-W53', '2026-12-28', 2, 1],
        ['2027-W01', '2027-01-04', 1, 0],
      ]);
      assert.deepEqual(body.previous.weeks.map(pick), [
        ['2026-W49', '2026-11-30', 1, 0],
        ['2026-W50', '2026-12-07', 0, 0],
        ['2026-W51', '2026-12-14', 0, 0],
      ]);
      assert.deepEqual(body.change.totals, {
        deals_created: { absolute: 2, percent: 200, note: null },
        deals_won: zero,
        deals_lost: zero,
        activities: { absolute: 2, percent: null, note: 'zero_baseline' },
        tickets_created: zero,
        tickets_closed: zero,
        support_logs: zero,
      });
      // Month ends: December 2026 (last_month) and January 2027 (this_month) at the clock 2027-01-10.
      assert.equal((await get(a.key, 'sales', { range: 'last_month' })).json().created, 3);
      assert.equal((await get(a.key, 'sales', { range: 'this_month' })).json().created, 3);
      // The clock (Sunday 2027-01-10) is in 2027-W01, so last_week is the whole of 2026-W53.
      const week53 = (await get(a.key, 'trends', { range: 'last_week' })).json();
      assert.deepEqual(week53.weeks.map(pick), [['2026-W53', '2026-12-28', 2, 1]]);
    });

    test('leap day: a one-day custom range on 2028-02-29 against 2028-02-28', async () => {
      const a = await createTestAccount(h);
      const o = await org(h, a.accountId, 'Leap');
      for (const created of ['2028-02-28T23:59:59.999', '2028-02-29T00:00:00', '2028-02-29T23:59:59.999', '2028-03-01T00:00:00']) {
        await deal(h, a.accountId, { org: o, owner: null, created, status: 'new' });
      }
      const body = (await get(a.key, 'sales', { from: '2028-02-29', to: '2028-02-29', compare: 1 })).json();
      assert.deepEqual(body.period, { from: '2028-02-29T00:00:00.000Z', to: '2028-03-01T00:00:00.000Z' });
      assert.deepEqual(body.previous.period, { from: '2028-02-28T00:00:00.000Z', to: '2028-02-29T00:00:00.000Z' });
      assert.deepEqual([body.created, body.previous.created, body.change.created], [2, 1, { absolute: 1, percent: 100, note: null }]);
      const weeks = (await get(a.key, 'trends', { from: '2028-02-29', to: '2028-02-29' })).json().weeks;
      assert.deepEqual(
        weeks.map((w: any) => [w.week, w.deals_created]),
        [['2028-W09', 2]],
      );
    });

    test('bad ranges are 422 naming the field, on every endpoint', async () => {
      const a = await createTestAccount(h);
      const cases: [Record<string, string | number>, string, string][] = [
        [{ range: 'forever' }, 'range', 'invalid_enum'],
        [{ range: 'THIS_MONTH' }, 'range', 'invalid_enum'],
        [{ from: '2026-02-30' }, 'from', 'invalid_date'],
        [{ from: '2026-01-01', to: '2026-13-01' }, 'to', 'invalid_date'],
        [{ from: '2027-02-29' }, 'from', 'invalid_date'],
        [{ from: '2026-01-01T25:00:00Z' }, 'from', 'invalid_date'],
        [{ from: "2026-01-01' or 1=1" }, 'from', 'invalid_date'],
        [{ to: '2026-01-01' }, 'from', 'required'],
        [{ from: '2026-03-02', to: '2026-03-01' }, 'from', 'after_to'],
        [{ from: '2016-01-01', to: '2026-01-01' }, 'to', 'range_too_long'],
        [{ from: '1900-01-01', to: '1905-01-01' }, 'from', 'too_small'],
        [{ compare: 'yes' }, 'compare', 'invalid_enum'],
      ];
      for (const endpoint of ENDPOINTS) {
        for (const [query, field, reason] of cases) {
          const body = assertError(await get(a.key, endpoint, query), 422, 'validation_error');
          assert.equal(body.fields[field], reason, `${endpoint} ${JSON.stringify(query)}: ${JSON.stringify(body.fields)}`);
        }
        assert.equal((await get(a.key, endpoint, { from: '2016-01-01', to: '2025-12-31', unknown: 'x' })).statusCode, 200, 'ten years exactly is allowed');
      }
      for (const [query, field, reason] of [
        [{ by: 'boss' }, 'by', 'invalid_enum'],
        [{ owner_user_id: 'abc' }, 'owner_user_id', 'invalid_type'],
        [{ owner_user_id: 0 }, 'owner_user_id', 'too_small'],
        [{ owner_user_id: 1.5 }, 'owner_user_id', 'invalid_type'],
      ] as [Record<string, string | number>, string, string][]) {
        const body = assertError(await get(a.key, 'sales', query), 422, 'validation_error');
        assert.equal(body.fields[field], reason, JSON.stringify(body.fields));
      }
    });

    test("another account's user as owner_user_id is 404, like an absent one; another account's data never moves a number", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const stranger = await user(h, b.accountId, 'Stranger');
      await buildFixture(h, b.accountId, b.ownerId);
      assertError(await get(a.key, 'sales', { owner_user_id: stranger }), 404, 'user_not_found');
      assertError(await get(a.key, 'sales', { owner_user_id: 99_999_999 }), 404, 'user_not_found');
      for (const endpoint of ENDPOINTS) {
        for (const range of ['this_year', 'last_year', 'last_month']) {
          const body = (await get(a.key, endpoint, { range, compare: 1 })).json();
          const numbers = JSON.stringify(body, (k, v) => (['period', 'weeks', 'user_id'].includes(k) ? undefined : v)).match(/":[1-9]/g);
          assert.equal(numbers, null, `${endpoint} ${range}: ${JSON.stringify(body)}`);
          if (endpoint === 'team')
            assert.deepEqual(
              body.users.map((u: any) => u.user_id),
              [a.ownerId],
            );
        }
      }
      const theirs = (await get(b.key, 'sales', { owner_user_id: stranger })).json();
      assert.equal(theirs.created, 0);
    });

    test('common authentication and scope checks on every route', async () => {
      const a = await createTestAccount(h);
      for (const endpoint of ENDPOINTS) {
        await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/analytics/${endpoint}`, scope: 'analytics:read' });
        const readKey = await a.keyWith(['read']);
        assert.equal((await get(readKey, endpoint, {})).statusCode, 200);
        const analyticsKey = await a.keyWith(['analytics:read']);
        assert.equal((await get(analyticsKey, endpoint, {})).statusCode, 200);
      }
    });

    test('the OpenAPI document describes every analytics response in full', async () => {
      const doc = (await call(h, 'GET', '/api/v1/openapi.json')).json();
      for (const endpoint of ENDPOINTS) {
        const op = doc.paths[`/api/v1/analytics/${endpoint}`].get;
        assert.ok(op.operationId && op.summary, endpoint);
        const schema = op.responses['200'].content['application/json'].schema;
        assert.ok(schema.properties.period && schema.properties.range && schema.properties.previous && schema.properties.change, endpoint);
        assert.ok(op.responses['422'], endpoint);
        assert.deepEqual(op['x-required-scopes'], ['analytics:read']);
      }
      assert.ok(doc.paths['/api/v1/analytics/sales'].get.responses['404']);
      // The definitions a reader cannot guess: the funnel is per history stage, team rows sum to totals, trends are clipped.
      const schemaOf = (endpoint: string) => doc.paths[`/api/v1/analytics/${endpoint}`].get.responses['200'].content['application/json'].schema;
      const sales = schemaOf('sales');
      assert.match(sales.properties.funnel.description, /Stages are not cumulative/);
      assert.match(JSON.stringify(sales.properties.change), /computed from the rounded rates shown.*Null when either side has no rate/);
      assert.match(schemaOf('team').properties.users.description, /user_id, display_name and is_active null.*The rows sum to totals/);
      assert.match(schemaOf('trends').properties.weeks.description, /clipped to the period/);
    });
  });
}
