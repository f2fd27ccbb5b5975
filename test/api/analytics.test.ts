import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { buildFixture, buildNoise, type Fixture } from './analytics-fixture.ts';

// Every number below is worked out by hand from the records listed in analytics-fixture.ts.
const NOW = '2026-11-21T12:00:00.000Z';
const zero = { absolute: 0, percent: 0, note: null };
const chg = (absolute: number, percent: number | null) => ({ absolute, percent, note: percent === null ? 'zero_baseline' : null });
const period = (from: string, to: string) => ({ from: `${from}T00:00:00.000Z`, to: `${to}T00:00:00.000Z` });
const NOV = period('2026-11-01', '2026-12-01');
const OCT = period('2026-10-01', '2026-11-01');

/** Bodies per engine and request, to prove the two engines answer the very same JSON. */
const seen: Record<string, Map<string, string>> = {};

for (const engine of engines()) {
  describe(`analytics over the hand-built fixture [${engine}]`, () => {
    let h: Harness;
    let a: TestAccount;
    let f: Fixture;
    let ownerName: string;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
      a = await createTestAccount(h, 'Fixture');
      f = await buildFixture(h, a.accountId, a.ownerId);
      ownerName = (await h.db.selectFrom('users').select('display_name').where('id', '=', a.ownerId).executeTakeFirstOrThrow()).display_name;
      const b = await createTestAccount(h, 'Noise');
      await buildNoise(h, b.accountId);
      seen[engine] = new Map();
    });
    after(() => h.close());

    const get = async (endpoint: string, query: Record<string, string | number> = {}) => {
      const res = await call(h, 'GET', `/api/v1/analytics/${endpoint}`, { key: a.key, query });
      assert.equal(res.statusCode, 200, res.body);
      seen[engine].set(`${endpoint}?${new URLSearchParams(query as Record<string, string>)}`, res.body.replaceAll(ownerName, '<owner>'));
      return res.json();
    };

    test('sales, this_month with compare', async () => {
      const rep = (user_id: number | null, display_name: string | null, created: number, won: number, lost: number, win_rate: number | null) => ({
        user_id,
        display_name,
        created,
        won,
        lost,
        win_rate,
      });
      assert.deepEqual(await get('sales', { compare: 1 }), {
        range: 'this_month',
        period: NOV,
        by: 'owner',
        owner_user_id: null,
        created: 4,
        won: 2,
        lost: 1,
        win_rate: 66.7,
        by_rep: [rep(f.alice, 'Alice', 3, 1, 1, 50), rep(f.bob, 'Bob', 1, 1, 0, 100)],
        // From each deal's history (creation row included), once per deal and stage: d1 new, qualified, proposal, won;
        // d2 new, qualified (then lost); d3 new, qualified, proposal; d7 created at qualified, then negotiation.
        funnel: { new: 3, qualified: 4, proposal: 2, negotiation: 1, won: 1 },
        lost_reasons: [{ code: 'price', label: 'Too expensive', count: 1 }],
        open_pipeline: {
          count: 3,
          values: [
            { currency: 'EUR', value: '200.50' },
            { currency: 'USD', value: '50.00' },
          ],
          by_status: [
            { status: 'new', count: 1, values: [] },
            { status: 'qualified', count: 0, values: [] },
            { status: 'proposal', count: 1, values: [{ currency: 'EUR', value: '200.50' }] },
            { status: 'negotiation', count: 1, values: [{ currency: 'USD', value: '50.00' }] },
          ],
          overdue_followups: 1,
          deals_without_activity_14d: 1,
        },
        previous: {
          period: OCT,
          created: 2,
          won: 0,
          lost: 1,
          win_rate: 0,
          by_rep: [rep(f.bob, 'Bob', 1, 0, 0, null), rep(null, null, 1, 0, 0, null), rep(f.alice, 'Alice', 0, 0, 1, 0)],
          // d4 new; d5 new, negotiation, won (it skipped qualified and proposal).
          funnel: { new: 2, qualified: 0, proposal: 0, negotiation: 1, won: 1 },
          lost_reasons: [{ code: null, label: null, count: 1 }],
        },
        change: {
          created: chg(2, 100),
          won: chg(2, null),
          lost: zero,
          // 2 of 3 closed won (66.7) against 0 of 1 (0.0): a zero baseline, in percentage points.
          win_rate: chg(66.7, null),
          funnel: { new: chg(1, 50), qualified: chg(4, null), proposal: chg(2, null), negotiation: zero, won: zero },
        },
      });
    });

    test('sales by closer and for one owner', async () => {
      const closer = await get('sales', { by: 'closer' });
      assert.equal(closer.by, 'closer');
      assert.deepEqual(closer.by_rep, [
        { user_id: f.bob, display_name: 'Bob', created: 1, won: 2, lost: 0, win_rate: 100 },
        { user_id: f.alice, display_name: 'Alice', created: 3, won: 0, lost: 1, win_rate: 0 },
      ]);
      assert.deepEqual([closer.created, closer.won, closer.lost], [4, 2, 1]);
      const alice = await get('sales', { owner_user_id: f.alice });
      assert.equal(alice.owner_user_id, f.alice);
      assert.deepEqual([alice.created, alice.won, alice.lost, alice.win_rate], [3, 1, 1, 50]);
      // Alice's deals created in November: d1 (new, qualified, proposal, won), d2 (new, qualified), d7 (qualified, negotiation).
      assert.deepEqual(alice.funnel, { new: 2, qualified: 3, proposal: 1, negotiation: 1, won: 1 });
      assert.deepEqual(alice.open_pipeline, {
        count: 1,
        values: [{ currency: 'USD', value: '50.00' }],
        by_status: [
          { status: 'new', count: 0, values: [] },
          { status: 'qualified', count: 0, values: [] },
          { status: 'proposal', count: 0, values: [] },
          { status: 'negotiation', count: 1, values: [{ currency: 'USD', value: '50.00' }] },
        ],
        overdue_followups: 0,
        deals_without_activity_14d: 0,
      });
    });

    test('sales today: a zero baseline and both periods zero', async () => {
      const today = await get('sales', { range: 'today', compare: 'true' });
      assert.deepEqual(today.period, period('2026-11-21', '2026-11-22'));
      assert.deepEqual(today.previous.period, period('2026-11-20', '2026-11-21'));
      assert.deepEqual([today.created, today.won, today.lost, today.win_rate], [1, 0, 0, null]);
      assert.deepEqual(today.change, {
        created: chg(1, null),
        won: zero,
        lost: zero,
        // Neither day closed a deal: no rate on either side, nothing to compare.
        win_rate: null,
        // d7 was created at qualified and moved to negotiation: it never was new.
        funnel: { new: zero, qualified: chg(1, null), proposal: zero, negotiation: chg(1, null), won: zero },
      });
    });

    test('support, this_month with compare', async () => {
      const row = (created: number, closed: number, support_updates: number, currently_open: number) => ({ created, closed, support_updates, currently_open });
      assert.deepEqual(await get('support', { compare: 'previous' }), {
        range: 'this_month',
        period: NOV,
        created: 3,
        closed: 1,
        support_updates: 4,
        currently_open: 4,
        aged_open: 2,
        by_employee: [
          { user_id: f.alice, display_name: 'Alice', ...row(1, 1, 2, 1) },
          { user_id: f.bob, display_name: 'Bob', ...row(1, 0, 1, 2) },
          { user_id: null, display_name: null, ...row(1, 0, 1, 1) },
        ],
        by_customer: [
          { org_id: f.acme, name: 'Acme', ...row(1, 1, 3, 2) },
          { org_id: f.globex, name: 'Globex', ...row(1, 0, 1, 1) },
          { org_id: f.initech, name: 'Initech', ...row(1, 0, 0, 1) },
        ],
        previous: {
          period: OCT,
          created: 2,
          closed: 1,
          support_updates: 2,
          by_employee: [
            { user_id: f.alice, display_name: 'Alice', ...row(1, 0, 1, 1) },
            { user_id: f.bob, display_name: 'Bob', ...row(1, 1, 1, 2) },
            { user_id: null, display_name: null, ...row(0, 0, 0, 1) },
          ],
          by_customer: [
            { org_id: f.globex, name: 'Globex', ...row(1, 1, 1, 1) },
            { org_id: f.acme, name: 'Acme', ...row(1, 0, 1, 2) },
            { org_id: f.initech, name: 'Initech', ...row(0, 0, 0, 1) },
          ],
        },
        change: { created: chg(1, 50), closed: zero, support_updates: chg(2, 100) },
      });
    });

    test('team, this_month with compare', async () => {
      const facts = (deals_created: number, deals_won: number, deals_lost: number, activities: number, tickets_closed: number, support_logs: number) => ({
        deals_created,
        deals_won,
        deals_lost,
        activities,
        tickets_closed,
        support_logs,
      });
      const users = (o: object, al: object, bo: object, none: object) => [
        { user_id: f.owner, display_name: '<owner>', is_active: true, ...o },
        { user_id: f.alice, display_name: 'Alice', is_active: true, ...al },
        { user_id: f.bob, display_name: 'Bob', is_active: true, ...bo },
        // Without a user: November a4 (by an API key) and l2 (no author); October d4 (no owner).
        { user_id: null, display_name: null, is_active: null, ...none },
      ];
      const body = await get('team', { compare: 1 });
      body.users[0].display_name = body.users[0].display_name.replace(ownerName, '<owner>');
      body.previous.users[0].display_name = body.previous.users[0].display_name.replace(ownerName, '<owner>');
      assert.deepEqual(body, {
        range: 'this_month',
        period: NOV,
        users: users(facts(0, 0, 0, 0, 0, 0), facts(3, 1, 1, 2, 1, 2), facts(1, 1, 0, 1, 0, 1), facts(0, 0, 0, 1, 0, 1)),
        totals: facts(4, 2, 1, 4, 1, 4),
        previous: {
          period: OCT,
          users: users(facts(0, 0, 0, 0, 0, 0), facts(0, 0, 1, 1, 0, 1), facts(1, 0, 0, 1, 1, 1), facts(1, 0, 0, 0, 0, 0)),
          totals: facts(2, 0, 1, 2, 1, 2),
        },
        change: {
          totals: {
            deals_created: chg(2, 100),
            deals_won: chg(2, null),
            deals_lost: zero,
            activities: chg(2, 100),
            tickets_closed: zero,
            support_logs: chg(2, 100),
          },
        },
      });
    });

    test('customers, this_month with compare', async () => {
      const r = (org_id: number, name: string, value: number) => ({ org_id, name, value });
      const acme = (v: number) => r(f.acme, 'Acme', v);
      const globex = (v: number) => r(f.globex, 'Globex', v);
      const initech = (v: number) => r(f.initech, 'Initech', v);
      const totals = (a: number, b: number, c: number, d: number, e: number) => ({
        customers_with_deals_created: a,
        customers_with_deals_won: b,
        customers_with_activities: c,
        customers_with_tickets_created: d,
        customers_with_support_updates: e,
      });
      assert.deepEqual(await get('customers', { compare: 1 }), {
        range: 'this_month',
        period: NOV,
        rankings: {
          deals_created: [acme(3), globex(1)],
          deals_won: [acme(1), initech(1)],
          activities: [acme(3), globex(1)],
          tickets_created: [acme(1), globex(1), initech(1)],
          support_updates: [acme(3), globex(1)],
        },
        totals: totals(2, 2, 2, 3, 2),
        now_rankings: { open_deals: [globex(2), acme(1)], open_tickets: [acme(2), globex(1), initech(1)] },
        customers_with_open_support_and_open_deals: {
          count: 2,
          orgs: [
            { org_id: f.acme, name: 'Acme', open_tickets: 2, open_deals: 1 },
            { org_id: f.globex, name: 'Globex', open_tickets: 1, open_deals: 2 },
          ],
        },
        previous: {
          period: OCT,
          rankings: {
            deals_created: [globex(1), initech(1)],
            deals_won: [],
            activities: [acme(1), initech(1)],
            tickets_created: [acme(1), globex(1)],
            support_updates: [acme(1), globex(1)],
          },
          totals: totals(2, 0, 2, 2, 2),
        },
        change: {
          totals: {
            customers_with_deals_created: zero,
            customers_with_deals_won: chg(2, null),
            customers_with_activities: zero,
            customers_with_tickets_created: chg(1, 50),
            customers_with_support_updates: zero,
          },
        },
      });
    });

    test('activity, this_month with compare', async () => {
      assert.deepEqual(await get('activity', { compare: 1 }), {
        range: 'this_month',
        period: NOV,
        total: 8,
        by_source: { timeline: 4, support_log: 4 },
        by_kind: { note: 1, email: 1, call: 1, meeting: 1 },
        previous: { period: OCT, total: 4, by_source: { timeline: 2, support_log: 2 }, by_kind: { note: 1, email: 0, call: 1, meeting: 0 } },
        change: {
          total: chg(4, 100),
          by_source: { timeline: chg(2, 100), support_log: chg(2, 100) },
          by_kind: { note: zero, email: chg(1, null), call: zero, meeting: chg(1, null) },
        },
      });
    });

    test('trends, this_month: one zero-filled row per ISO week', async () => {
      const w = (week: string, week_start: string, ...n: number[]) => {
        const [deals_created, deals_won, deals_lost, activities, tickets_created, tickets_closed, support_logs] = n;
        return { week, week_start, deals_created, deals_won, deals_lost, activities, tickets_created, tickets_closed, support_logs };
      };
      const body = await get('trends');
      assert.deepEqual(body, {
        range: 'this_month',
        period: NOV,
        weeks: [
          w('2026-W44', '2026-10-26', 0, 1, 0, 0, 0, 0, 0),
          w('2026-W45', '2026-11-02', 2, 0, 0, 2, 1, 1, 3),
          w('2026-W46', '2026-11-09', 0, 1, 1, 0, 2, 0, 1),
          w('2026-W47', '2026-11-16', 2, 0, 0, 2, 0, 0, 0),
          w('2026-W48', '2026-11-23', 0, 0, 0, 0, 0, 0, 0),
          w('2026-W49', '2026-11-30', 0, 0, 0, 0, 0, 0, 0),
        ],
        totals: { deals_created: 4, deals_won: 2, deals_lost: 1, activities: 4, tickets_created: 3, tickets_closed: 1, support_logs: 4 },
      });
    });

    test('every preset, every endpoint: the headline numbers', async () => {
      // preset → period [from, to], trend weeks [count, first, last], the period's totals [deals created, won, lost,
      // activities, tickets created, tickets closed, support logs] that sales, support, activity, team and trends each
      // report their share of, and the customers totals [with deals created, deals won, activities, tickets created, support updates].
      const presets: Record<string, [string, string, number, string, string, number[], number[]]> = {
        today: ['2026-11-21', '2026-11-22', 1, '2026-W47', '2026-W47', [1, 0, 0, 1, 0, 0, 0], [1, 0, 1, 0, 0]],
        this_week: ['2026-11-16', '2026-11-23', 1, '2026-W47', '2026-W47', [2, 0, 0, 2, 0, 0, 0], [2, 0, 2, 0, 0]],
        last_week: ['2026-11-09', '2026-11-16', 1, '2026-W46', '2026-W46', [0, 1, 1, 0, 2, 0, 1], [0, 1, 0, 2, 1]],
        this_month: ['2026-11-01', '2026-12-01', 6, '2026-W44', '2026-W49', [4, 2, 1, 4, 3, 1, 4], [2, 2, 2, 3, 2]],
        last_month: ['2026-10-01', '2026-11-01', 5, '2026-W40', '2026-W44', [2, 0, 1, 2, 2, 1, 2], [2, 0, 2, 2, 2]],
        this_quarter: ['2026-10-01', '2027-01-01', 14, '2026-W40', '2026-W53', [6, 2, 2, 6, 5, 2, 6], [3, 2, 3, 3, 2]],
        this_year: ['2026-01-01', '2027-01-01', 53, '2026-W01', '2026-W53', [7, 3, 2, 6, 6, 2, 6], [3, 2, 3, 3, 2]],
        last_year: ['2025-01-01', '2026-01-01', 53, '2025-W01', '2026-W01', [1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0]],
      };
      // Funnel [new, qualified, proposal, negotiation, won] of the deals created in the period, from the history
      // listed in the fixture (d4 new; d5 new, negotiation, won; d6 new, lost; d8 new, won).
      const funnels: Record<string, number[]> = {
        today: [0, 1, 0, 1, 0],
        this_week: [1, 2, 1, 1, 0],
        last_week: [0, 0, 0, 0, 0],
        this_month: [3, 4, 2, 1, 1],
        last_month: [2, 0, 0, 1, 1],
        this_quarter: [5, 4, 2, 2, 2],
        this_year: [6, 4, 2, 2, 2],
        last_year: [1, 0, 0, 0, 1],
      };
      // Rows without a user per period [deals_created, activities, support_logs]: d4 (Oct 15), a4 (Nov 21), l2 (Nov 6).
      const unattributed: Record<string, number[] | null> = {
        today: [0, 1, 0],
        this_week: [0, 1, 0],
        last_week: null,
        this_month: [0, 1, 1],
        last_month: [1, 0, 0],
        this_quarter: [1, 1, 1],
        this_year: [1, 1, 1],
        last_year: null,
      };
      for (const [range, [from, to, weeks, first, last, totals, customers]] of Object.entries(presets)) {
        const [created, won, lost, activities, ticketsCreated, ticketsClosed, supportLogs] = totals;
        const p = period(from, to);
        const s = await get('sales', { range });
        assert.deepEqual([s.range, s.period, s.created, s.won, s.lost], [range, p, created, won, lost], `sales ${range}`);
        assert.deepEqual(Object.values(s.funnel), funnels[range], `funnel ${range}`);
        const su = await get('support', { range });
        assert.deepEqual(
          [su.period, su.created, su.closed, su.support_updates, su.currently_open, su.aged_open],
          [p, ticketsCreated, ticketsClosed, supportLogs, 4, 2],
          `support ${range}`,
        );
        const ac = await get('activity', { range });
        assert.deepEqual(
          [ac.period, ac.by_source.timeline, ac.by_source.support_log, ac.total],
          [p, activities, supportLogs, activities + supportLogs],
          `activity ${range}`,
        );
        const tm = await get('team', { range });
        assert.deepEqual([tm.period, ...Object.values(tm.totals)], [p, created, won, lost, activities, ticketsClosed, supportLogs], `team ${range}`);
        const none = tm.users.find((u: any) => u.user_id === null);
        const u = unattributed[range];
        assert.deepEqual(
          none
            ? [tm.users.at(-1) === none, none.deals_created, none.activities, none.support_logs, none.deals_won + none.deals_lost + none.tickets_closed]
            : null,
          u && [true, ...u, 0],
          `team ${range}: the row without a user, last`,
        );
        const summed = Object.fromEntries(Object.keys(tm.totals).map((k) => [k, tm.users.reduce((sum: number, r: any) => sum + r[k], 0)]));
        assert.deepEqual(summed, tm.totals, `team ${range}: the rows sum to totals`);
        const tr = await get('trends', { range });
        assert.deepEqual(
          [tr.period, tr.weeks.length, tr.weeks[0].week, tr.weeks.at(-1).week, ...Object.values(tr.totals)],
          [p, weeks, first, last, ...totals],
          `trends ${range}`,
        );
        const cu = await get('customers', { range });
        assert.deepEqual([cu.period, ...Object.values(cu.totals)], [p, ...customers], `customers ${range}`);
      }
    });

    test('last_year ends in the week 2026-W01, which also opens this_year: the boundary splits it', async () => {
      const last = (await get('trends', { range: 'last_year' })).weeks.at(-1);
      const first = (await get('trends', { range: 'this_year' })).weeks[0];
      assert.deepEqual([last.week, last.week_start, last.deals_created, last.deals_won], ['2026-W01', '2025-12-29', 1, 0]);
      assert.deepEqual([first.week, first.week_start, first.deals_created, first.deals_won], ['2026-W01', '2025-12-29', 0, 1]);
    });
  });
}

describe('analytics: the same JSON on both engines', () => {
  test('every body of the fixture run is identical on SQLite and PostgreSQL', { skip: engines().length < 2 }, () => {
    assert.ok(seen.sqlite && seen.postgres, 'both engines ran');
    assert.ok(seen.sqlite.size > 50);
    assert.deepEqual([...seen.postgres.keys()].sort(), [...seen.sqlite.keys()].sort());
    for (const [key, body] of seen.sqlite) assert.equal(seen.postgres.get(key), body, key);
  });
});
