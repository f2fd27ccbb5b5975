import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { activity, at, buildFixture, deal, log, org, ticket, user } from './analytics-fixture.ts';
import * as levels0300 from '../../src/db/migrations/2026-11-25T0300_analytics_levels.ts';
import * as kept0310 from '../../src/db/migrations/2026-11-25T0310_analytics_kept.ts';
import * as moves0300 from '../../src/db/migrations/2026-11-28T0300_daily_rollup_moves.ts';
import * as counters0310 from '../../src/db/migrations/2026-11-28T0310_counter_statements_postgres.ts';
import { rebuildLostReasons } from '../../src/modules/analytics/analytics.sales.repository.ts';

const ENDPOINTS = ['sales', 'support', 'team', 'customers', 'activity', 'trends'];
const NOW = '2026-11-21T12:00:00.000Z';

let current: Harness;
const h0 = () => current;

for (const engine of engines()) {
  describe(`analytics daily rollup: kept exact by triggers, equal to counting the records [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
      current = h;
    });
    after(() => h.close());
    const get = async (key: string, endpoint: string, query: Record<string, string | number> = {}) => {
      const res = await call(h, 'GET', `/api/v1/analytics/${endpoint}`, { key, query });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    /** The sum of an account's funnel stage counts in the daily rollup. */
    const funnelRollupTotal = async (accountId: number) => {
      const r = await h.db
        .selectFrom('analytics_daily')
        .select((e) => e.fn.sum<number>('n').as('n'))
        .where('account_id', '=', accountId)
        .where('fact', '=', 'funnel_stage')
        .executeTakeFirstOrThrow();
      return Number(r.n ?? 0);
    };

    test('a period that is not whole days reads the records: the fixture plus one lost deal at 23:59:59.999 before it', async () => {
      const a = await createTestAccount(h);
      const f = await buildFixture(h, a.accountId, a.ownerId);
      const q = { from: '2026-10-31T23:59:59.999Z', to: '2026-11-30T23:59:59.998Z' };
      const sales = await get(a.key, 'sales', q);
      assert.equal(sales.range, 'custom');
      assert.deepEqual(sales.period, { from: '2026-10-31T23:59:59.999Z', to: '2026-11-30T23:59:59.999Z' });
      assert.deepEqual([sales.created, sales.won, sales.lost, sales.win_rate], [4, 2, 2, 50]);
      assert.deepEqual(
        sales.by_rep.map((r: any) => [r.user_id, r.created, r.won, r.lost]),
        [
          [f.alice, 3, 1, 2],
          [f.bob, 1, 1, 0],
        ],
      );
      assert.deepEqual(sales.lost_reasons, [
        { code: 'price', label: 'Too expensive', count: 1 },
        { code: null, label: null, count: 1 },
      ]);
      assert.deepEqual((await get(a.key, 'team', q)).totals, {
        deals_created: 4,
        deals_won: 2,
        deals_lost: 2,
        activities: 4,
        tickets_closed: 1,
        support_logs: 4,
      });
      const support = await get(a.key, 'support', q);
      assert.deepEqual([support.created, support.closed, support.support_updates, support.currently_open], [3, 1, 4, 4]);
      assert.deepEqual(
        support.by_employee.map((r: any) => [r.user_id, r.created, r.closed, r.support_updates, r.currently_open]),
        [
          [f.alice, 1, 1, 2, 1],
          [f.bob, 1, 0, 1, 2],
          [null, 1, 0, 1, 1],
        ],
      );
      assert.equal((await get(a.key, 'activity', q)).total, 8);
      const trends = await get(a.key, 'trends', q);
      assert.deepEqual(
        trends.weeks.map((w: any) => [w.week, w.deals_won, w.deals_lost]),
        [
          ['2026-W44', 1, 1],
          ['2026-W45', 0, 0],
          ['2026-W46', 1, 1],
          ['2026-W47', 0, 0],
          ['2026-W48', 0, 0],
          ['2026-W49', 0, 0],
        ],
      );
    });

    test('inserts, updates (owner, status, closed_at, kind, author) and deletes, cascades included, move every number', async () => {
      const a = await createTestAccount(h);
      const alice = await user(h, a.accountId, 'Alice');
      const bob = await user(h, a.accountId, 'Bob');
      const o = await org(h, a.accountId, 'Acme');
      const id = await deal(h, a.accountId, { org: o, owner: alice, created: '2026-11-02T00:00:00', status: 'new' });
      await activity(h, a.accountId, id, o, 'note', alice, '2026-11-03T00:00:00');
      const team = async (range = 'this_month') =>
        (await get(a.key, 'team', { range })).users
          .filter((u: any) => u.user_id !== a.ownerId)
          .map((u: any) => [u.deals_created, u.deals_won, u.deals_lost, u.activities, u.tickets_closed, u.support_logs]);
      assert.deepEqual(await team(), [
        [1, 0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0, 0],
      ]);

      const update = (values: Record<string, unknown>) => h.db.updateTable('deals').set(values).where('id', '=', id).execute();
      await update({ owner_user_id: bob });
      assert.deepEqual(await team(), [
        [0, 0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0, 0],
      ]);
      await update({ status: 'won', closed_at: at('2026-11-10T00:00:00'), closed_by_user_id: alice });
      assert.deepEqual(await team(), [
        [0, 0, 0, 1, 0, 0],
        [1, 1, 0, 0, 0, 0],
      ]);
      assert.deepEqual(
        (await get(a.key, 'sales', { by: 'closer' })).by_rep.map((r: any) => [r.user_id, r.won]),
        [
          [alice, 1],
          [bob, 0],
        ],
      );
      await update({ closed_at: at('2026-10-10T00:00:00') });
      assert.deepEqual([(await get(a.key, 'sales')).won, (await get(a.key, 'sales', { range: 'last_month' })).won], [0, 1]);
      await update({ status: 'lost', closed_at: at('2026-11-11T00:00:00') });
      assert.deepEqual(await team(), [
        [0, 0, 0, 1, 0, 0],
        [1, 0, 1, 0, 0, 0],
      ]);
      await update({ status: 'qualified', closed_at: null, closed_by_user_id: null });
      assert.deepEqual(await team(), [
        [0, 0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0, 0],
      ]);
      await update({ title: 'renamed', created_at: at('2026-10-02T00:00:00') });
      assert.deepEqual([(await get(a.key, 'sales')).created, (await get(a.key, 'sales', { range: 'last_month' })).created], [0, 1]);

      await h.db.updateTable('deal_activities').set({ event_type: 'call', user_id: bob }).where('deal_id', '=', id).execute();
      assert.deepEqual((await get(a.key, 'activity')).by_kind, { note: 0, email: 0, call: 1, meeting: 0 });
      assert.deepEqual(await team(), [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0],
      ]);

      const t = await ticket(h, a.accountId, { org: o, owner: alice, created: '2026-11-04T00:00:00', status: 'open' });
      await log(h, a.accountId, t, o, bob, '2026-11-05T00:00:00');
      await h.db
        .updateTable('tickets')
        .set({ status: 'closed', closed_at: at('2026-11-06T00:00:00') })
        .where('id', '=', t)
        .execute();
      assert.deepEqual(await team(), [
        [0, 0, 0, 0, 1, 0],
        [0, 0, 0, 1, 0, 1],
      ]);
      const support = await get(a.key, 'support');
      assert.deepEqual([support.created, support.closed, support.support_updates, support.currently_open], [1, 1, 1, 0]);
      await h.db.updateTable('tickets').set({ status: 'open', closed_at: null }).where('id', '=', t).execute();
      await h.db.updateTable('support_logs').set({ author_user_id: null }).where('ticket_id', '=', t).execute();
      // The log now has no author: it moves to the last row, the one without a user.
      assert.deepEqual(await team(), [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0, 1],
      ]);
      assert.equal((await get(a.key, 'support')).support_updates, 1);

      // Deleting the deal cascades to its activities and history; the ticket's logs go with the ticket.
      await h.db.deleteFrom('deals').where('id', '=', id).execute();
      await h.db.deleteFrom('tickets').where('id', '=', t).execute();
      for (const range of ['this_month', 'last_month']) {
        const numbers = JSON.stringify(await get(a.key, 'trends', { range, compare: 1 }), (k, v) =>
          ['period', 'weeks', 'week'].includes(k) ? undefined : v,
        ).match(/":[1-9]/g);
        assert.equal(numbers, null, range);
      }
      const rollup = await h.db
        .selectFrom('analytics_daily')
        .select((e) => e.fn.sum<number>('n').as('n'))
        .where('account_id', '=', a.accountId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(rollup.n ?? 0), 0);
    });

    test('the funnel rollup follows history inserts, updates and deletes, owner and creation changes, and deal deletion', async () => {
      const a = await createTestAccount(h);
      const alice = await user(h, a.accountId, 'Alice');
      const bob = await user(h, a.accountId, 'Bob');
      const o = await org(h, a.accountId, 'Acme');
      // id: new, qualified; the other: new, lost.
      const id = await deal(h, a.accountId, {
        org: o,
        owner: alice,
        created: '2026-11-02T00:00:00',
        status: 'qualified',
        moves: [['qualified', '2026-11-03T00:00:00']],
      });
      await deal(h, a.accountId, { org: o, owner: bob, created: '2026-11-04T00:00:00', status: 'lost', moves: [['lost', '2026-11-05T00:00:00']] });
      const funnel = async (query: Record<string, string | number> = {}) => Object.values((await get(a.key, 'sales', query)).funnel);
      assert.deepEqual(await funnel(), [2, 1, 0, 0, 0]);
      const add = (to: 'proposal' | 'won' | 'negotiation', when: string) =>
        h.db
          .insertInto('deal_status_history')
          .values({ account_id: a.accountId, deal_id: id, from_status: null, to_status: to, changed_by_user_id: null, changed_at: at(when) })
          .returning('id')
          .executeTakeFirstOrThrow();
      const won = await add('won', '2026-11-06T00:00:00');
      assert.deepEqual(await funnel(), [2, 1, 0, 0, 1], 'won alone: the stages between are not implied');
      const proposal = await add('proposal', '2026-11-07T00:00:00');
      assert.deepEqual(await funnel(), [2, 1, 1, 0, 1]);
      const wonAgain = await add('won', '2026-11-08T00:00:00');
      assert.deepEqual(await funnel(), [2, 1, 1, 0, 1], 'a second change to won counts the deal once');
      await h.db.deleteFrom('deal_status_history').where('id', '=', Number(won.id)).execute();
      assert.deepEqual(await funnel(), [2, 1, 1, 0, 1], 'the other won row still counts');
      await h.db.deleteFrom('deal_status_history').where('id', '=', Number(wonAgain.id)).execute();
      assert.deepEqual(await funnel(), [2, 1, 1, 0, 0], 'the last won row gone');
      await h.db.updateTable('deal_status_history').set({ to_status: 'negotiation' }).where('id', '=', Number(proposal.id)).execute();
      assert.deepEqual(await funnel(), [2, 1, 0, 1, 0]);
      await h.db.updateTable('deal_status_history').set({ to_status: 'qualified' }).where('id', '=', Number(proposal.id)).execute();
      assert.deepEqual(await funnel(), [2, 1, 0, 0, 0], 'a second qualified row counts the deal once');
      await h.db.updateTable('deal_status_history').set({ to_status: 'negotiation' }).where('id', '=', Number(proposal.id)).execute();
      assert.deepEqual(await funnel(), [2, 1, 0, 1, 0]);
      assert.deepEqual(await funnel({ owner_user_id: alice }), [1, 1, 0, 1, 0]);
      await h.db.updateTable('deals').set({ owner_user_id: bob }).where('id', '=', id).execute();
      assert.deepEqual(await funnel({ owner_user_id: alice }), [0, 0, 0, 0, 0]);
      assert.deepEqual(await funnel({ owner_user_id: bob }), [2, 1, 0, 1, 0]);
      await h.db
        .updateTable('deals')
        .set({ created_at: at('2026-10-02T00:00:00') })
        .where('id', '=', id)
        .execute();
      assert.deepEqual(await funnel(), [1, 0, 0, 0, 0]);
      assert.deepEqual(await funnel({ range: 'last_month' }), [1, 1, 0, 1, 0]);
      await h.db.deleteFrom('deals').where('id', '=', id).execute();
      assert.deepEqual(await funnel({ range: 'last_month' }), [0, 0, 0, 0, 0]);
      assert.equal(await funnelRollupTotal(a.accountId), 1, 'only the lost deal is left in the funnel rollup, at new');
    });

    test('the funnel counts each history stage once per deal (the documented example), from the rollup, the records and a rebuilt rollup', async () => {
      const a = await createTestAccount(h);
      const alice = await user(h, a.accountId, 'Alice');
      const o = await org(h, a.accountId, 'Acme');
      const other = await org(h, a.accountId, 'Other');
      const d = (initial: 'new' | 'qualified' | 'won' | 'lost', moves: ['new' | 'won' | 'lost', string][] = [], orgId = o) =>
        deal(h, a.accountId, { org: orgId, owner: alice, created: '2026-11-02T10:00:00', initial, status: moves.at(-1)?.[0] ?? initial, moves });
      await d('qualified', [['won', '2026-11-05T00:00:00']]); // A: qualified, won
      await d('new', [
        ['lost', '2026-11-03T00:00:00'],
        ['new', '2026-11-04T00:00:00'],
        ['lost', '2026-11-05T00:00:00'],
      ]); // B: new (twice), lost
      await d('new'); // C
      await d('new'); // D
      await d('new', [], other); // E
      await d('won'); // F: created won
      await d('lost'); // G: created lost
      const expected = { new: 4, qualified: 1, proposal: 0, negotiation: 0, won: 2 };
      const funnel = async (query: Record<string, string | number>) => (await get(a.key, 'sales', query)).funnel;
      assert.deepEqual(await funnel({}), expected, 'rollup');
      assert.deepEqual(await funnel({ owner_user_id: alice }), expected, 'records, one owner');
      assert.deepEqual(await funnel({ from: '2026-11-02T10:00:00Z', to: '2026-11-02T10:00:00.000Z' }), expected, 'records, a period of one instant');
      assert.deepEqual(await funnel({ range: 'last_month' }), { new: 0, qualified: 0, proposal: 0, negotiation: 0, won: 0 });

      // The migration's rebuild from history gives the same counts as the triggers.
      const migration = await import('../../src/db/migrations/2026-11-21T0170_funnel.ts');
      await migration.down(h.db as never);
      await migration.up(h.db as never);
      assert.deepEqual(await funnel({}), expected, 'rebuilt rollup');

      // Deleting an org cascades to its deals and their history: E leaves the funnel.
      await h.db.deleteFrom('orgs').where('id', '=', other).execute();
      assert.deepEqual(await funnel({}), { ...expected, new: 3 });
      await h.db.deleteFrom('orgs').where('id', '=', o).execute();
      assert.deepEqual(await funnel({}), { new: 0, qualified: 0, proposal: 0, negotiation: 0, won: 0 });
      assert.equal(await funnelRollupTotal(a.accountId), 0);
    });

    test('property: for random records, the rollup (this_year) and the records (the same year as date-times) give the same JSON', async () => {
      const dayMs = 86_400_000;
      const year = at('2026-01-01T00:00:00');
      // Instants from mid-2025 to early 2027, never the very last millisecond of 2026 (the one the two periods differ on).
      const instant = fc
        .integer({ min: year - 200 * dayMs, max: year + 400 * dayMs })
        .filter((t) => t !== at('2026-12-31T23:59:59.999') && t !== at('2026-06-10T23:59:59.999') && t !== at('2026-06-30T23:59:59.999'));
      const record = fc.record({
        created: instant,
        closedAfter: fc.option(fc.integer({ min: 0, max: 90 * dayMs })),
        status: fc.constantFrom('new', 'proposal', 'won', 'lost', 'open', 'pending', 'closed'),
        owner: fc.integer({ min: 0, max: 2 }),
        closer: fc.integer({ min: 0, max: 2 }),
        kind: fc.constantFrom('note', 'email', 'call', 'meeting' as const),
        org: fc.integer({ min: 0, max: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 12 }), async (records) => {
          const a = await createTestAccount(h);
          const users = [null, await user(h, a.accountId, 'U1'), await user(h, a.accountId, 'U2')];
          const orgs = [await org(h, a.accountId, 'O1'), await org(h, a.accountId, 'O2')];
          const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
          for (const r of records) {
            const closed = r.closedAfter === null ? undefined : iso(r.created + r.closedAfter);
            const isDeal = ['new', 'proposal', 'won', 'lost'].includes(r.status);
            if (isDeal) {
              const final = r.status as 'new' | 'proposal' | 'won' | 'lost';
              const closedDeal = final === 'won' || final === 'lost';
              const id = await deal(h, a.accountId, {
                org: orgs[r.org],
                owner: users[r.owner],
                created: iso(r.created),
                status: final,
                closed: closedDeal ? (closed ?? iso(r.created)) : undefined,
                closedBy: closedDeal ? users[r.closer] : null,
                moves: final === 'new' ? [] : ([...(r.org ? [['qualified', iso(r.created)]] : []), [final, closed ?? iso(r.created)]] as never),
              });
              await activity(h, a.accountId, id, orgs[r.org], r.kind, users[r.closer], iso(r.created + (r.closedAfter ?? 0)));
            } else {
              const t = await ticket(h, a.accountId, {
                org: orgs[r.org],
                owner: users[r.owner],
                created: iso(r.created),
                status: r.status as 'open' | 'pending' | 'closed',
                closed: r.status === 'closed' ? (closed ?? iso(r.created)) : undefined,
              });
              await log(h, a.accountId, t, orgs[r.org], users[r.closer], iso(r.created + (r.closedAfter ?? 0)));
            }
          }
          for (const endpoint of ENDPOINTS) {
            const strip = (b: any) => JSON.stringify(b, (k, v) => (k === 'period' || k === 'range' ? undefined : v));
            const byDays = await get(a.key, endpoint, { range: 'this_year', compare: 1 });
            const byRecords = await get(a.key, endpoint, { from: '2026-01-01T00:00:00Z', to: '2026-12-31T23:59:59.998Z', compare: 1 });
            assert.equal(byRecords.period.to, '2026-12-31T23:59:59.999Z');
            assert.equal(strip(byRecords), strip(byDays), endpoint);
            // One whole month: its month rows alone (one per org: ranked without grouping).
            const month = await get(a.key, endpoint, { from: '2026-06-01', to: '2026-06-30' });
            const monthRecords = await get(a.key, endpoint, { from: '2026-06-01T00:00:00Z', to: '2026-06-30T23:59:59.998Z' });
            assert.equal(strip(monthRecords), strip(month), `${endpoint} month`);
            // Whole days around whole months: the month rollup plus the records of the days before and after.
            const mixed = await get(a.key, endpoint, { from: '2026-03-15', to: '2026-06-10' });
            const mixedRecords = await get(a.key, endpoint, { from: '2026-03-15T00:00:00Z', to: '2026-06-10T23:59:59.998Z' });
            assert.equal(strip(mixedRecords), strip(mixed), `${endpoint} mixed`);
            // Days, months and a whole year: the yearly, monthly and record parts together.
            const long = await get(a.key, endpoint, { from: '2025-11-15', to: '2027-02-10' });
            const longRecords = await get(a.key, endpoint, { from: '2025-11-15T00:00:00Z', to: '2027-02-10T23:59:59.998Z' });
            assert.equal(strip(longRecords), strip(long), `${endpoint} long`);
          }
        }),
        { numRuns: 25 },
      );
    });

    test('property: the month and whole-account levels, lost reasons and open counts per org equal a recount of the records, after inserts, updates and deletes, and after the migrations rebuild them', async () => {
      const dayMs = 86_400_000;
      const instant = fc.integer({ min: at('2025-06-01T00:00:00'), max: at('2027-03-01T00:00:00') });
      const status = fc.constantFrom('new', 'qualified', 'won', 'lost', 'open', 'pending', 'closed');
      const record = fc.record({
        created: instant,
        closedAfter: fc.option(fc.integer({ min: 0, max: 90 * dayMs })),
        status,
        owner: fc.integer({ min: 0, max: 2 }),
        closer: fc.integer({ min: 0, max: 2 }),
        kind: fc.constantFrom('note', 'email', 'call', 'meeting' as const),
        org: fc.integer({ min: 0, max: 2 }),
        reason: fc.constantFrom(null, ['price', 'Too expensive'], ['price', 'Pricey'], ['timing', null] as const),
        // What happens after: nothing, an update of status, owner, org, dates and reason, or a delete.
        after: fc.constantFrom('keep', 'update', 'delete'),
        next: fc.record({ status, owner: fc.integer({ min: 0, max: 2 }), org: fc.integer({ min: 0, max: 2 }), moved: fc.integer({ min: -40, max: 40 }) }),
      });
      const DEAL = ['new', 'qualified', 'won', 'lost'];
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 10 }), async (records) => {
          const a = await createTestAccount(h);
          const users = [null, await user(h, a.accountId, 'U1'), await user(h, a.accountId, 'U2')];
          const orgs = [await org(h, a.accountId, 'O1'), await org(h, a.accountId, 'O2'), await org(h, a.accountId, 'O3')];
          const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
          for (const r of records) {
            const closedAt = r.created + (r.closedAfter ?? 0);
            // An 'update' moves the record to another owner, org and dates, and its activity or log with it.
            const shift = r.next.moved * dayMs;
            const mover = users[r.next.owner];
            const moved = (closed: boolean) => ({
              owner_user_id: mover,
              org_id: orgs[r.next.org],
              created_at: r.created + shift,
              closed_at: closed ? closedAt + shift : null,
            });
            if (DEAL.includes(r.status)) {
              const closed = r.status === 'won' || r.status === 'lost';
              const id = await deal(h, a.accountId, {
                org: orgs[r.org],
                owner: users[r.owner],
                created: iso(r.created),
                status: r.status as 'new',
                closed: closed ? iso(closedAt) : undefined,
                closedBy: closed ? users[r.closer] : null,
                reason: r.status === 'lost' && r.reason ? (r.reason as [string, string]) : undefined,
              });
              await activity(h, a.accountId, id, orgs[r.org], r.kind, users[r.closer], iso(closedAt));
              const next = DEAL.includes(r.next.status) ? r.next.status : 'lost';
              const nextClosed = next === 'won' || next === 'lost';
              if (r.after === 'update') {
                await h.db
                  .updateTable('deals')
                  .set({
                    ...moved(nextClosed),
                    status: next as 'new',
                    closed_by_user_id: nextClosed ? mover : null,
                    lost_reason_label: next === 'lost' ? 'Changed' : null,
                  })
                  .where('id', '=', id)
                  .execute();
                await h.db
                  .updateTable('deal_activities')
                  .set({ event_type: 'call', user_id: mover, created_at: closedAt + shift })
                  .where('deal_id', '=', id)
                  .execute();
              }
              if (r.after === 'delete') await h.db.deleteFrom('deals').where('id', '=', id).execute();
            } else {
              const t = await ticket(h, a.accountId, {
                org: orgs[r.org],
                owner: users[r.owner],
                created: iso(r.created),
                status: r.status as 'open',
                closed: r.status === 'closed' ? iso(closedAt) : undefined,
              });
              await log(h, a.accountId, t, orgs[r.org], users[r.closer], iso(closedAt));
              const next = DEAL.includes(r.next.status) ? 'closed' : r.next.status;
              if (r.after === 'update') {
                await h.db
                  .updateTable('tickets')
                  .set({ ...moved(next === 'closed'), status: next as 'open' })
                  .where('id', '=', t)
                  .execute();
                await h.db
                  .updateTable('support_logs')
                  .set({ author_user_id: mover, created_at: closedAt + shift })
                  .where('ticket_id', '=', t)
                  .execute();
              }
              if (r.after === 'delete') await h.db.deleteFrom('tickets').where('id', '=', t).execute();
            }
          }
          const expected = await recount(a.accountId);
          assert.deepEqual(await kept(a.accountId), expected, 'kept by the triggers');
          await rebuildLostReasons(h.db, a.accountId);
          assert.deepEqual(await kept(a.accountId), expected, 'lost reasons rebuilt as the seed does');
          if (records[0].after === 'keep') {
            // The migrations' backfills give the same rows (for every account: run once in a while).
            for (const m of [kept0310, levels0300]) await m.down(h.db as never);
            for (const m of [levels0300, kept0310]) await m.up(h.db as never);
            assert.deepEqual(await kept(a.accountId), expected, 'rebuilt by the migrations');
          }
        }),
        { numRuns: 12 },
      );
    });

    /** Random records, then updates of one column at a time of every table; the daily facts must equal a recount after each record. */
    const singleColumnUpdates = async (numRuns: number) => {
      const dayMs = 86_400_000;
      const instant = fc.integer({ min: at('2025-06-01T00:00:00'), max: at('2027-03-01T00:00:00') });
      const pick = fc.integer({ min: 0, max: 2 });
      // One update: a column of the record's table (or one no fact reads) and a new value for it.
      const change = fc.record({ column: fc.integer({ min: 0, max: 7 }), user: pick, org: pick, when: instant, status: fc.integer({ min: 0, max: 5 }) });
      const record = fc.record({
        created: instant,
        closed: instant,
        dealStatus: fc.constantFrom('new', 'won', 'lost'),
        owner: pick,
        org: pick,
        changes: fc.array(change, { maxLength: 5 }),
      });
      const DEAL_STATUSES = ['new', 'qualified', 'won', 'lost', 'won', 'lost'] as const;
      const TICKET_STATUSES = ['open', 'pending', 'closed', 'closed', 'open', 'closed'] as const;
      const KINDS = ['note', 'email', 'call', 'meeting', 'note', 'call'] as const;
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 6 }), async (records) => {
          const a = await createTestAccount(h);
          const users = [null, await user(h, a.accountId, 'U1'), await user(h, a.accountId, 'U2')];
          const orgs = [await org(h, a.accountId, 'O1'), await org(h, a.accountId, 'O2'), await org(h, a.accountId, 'O3')];
          const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
          for (const r of records) {
            const closed = r.dealStatus !== 'new';
            const id = await deal(h, a.accountId, {
              org: orgs[r.org],
              owner: users[r.owner],
              created: iso(r.created),
              status: r.dealStatus,
              closed: closed ? iso(r.closed) : undefined,
              closedBy: closed ? users[r.owner] : null,
            });
            await activity(h, a.accountId, id, orgs[r.org], 'note', users[r.owner], iso(r.created + dayMs));
            const t = await ticket(h, a.accountId, { org: orgs[r.org], owner: users[r.owner], created: iso(r.created), status: 'open' });
            await log(h, a.accountId, t, orgs[r.org], users[r.owner], iso(r.created + dayMs));
            for (const c of r.changes) {
              const user = users[c.user];
              const dealSet: Record<string, unknown>[] = [
                { owner_user_id: user },
                { status: DEAL_STATUSES[c.status] },
                { closed_at: c.when },
                { closed_by_user_id: user },
                { created_at: c.when },
                { org_id: orgs[c.org] },
                { title: `Deal ${c.when}`, value_cents: c.when % 1000 },
                { status: DEAL_STATUSES[c.status], closed_at: c.status % 2 ? null : c.when },
              ];
              await h.db.updateTable('deals').set(dealSet[c.column]).where('id', '=', id).execute();
              const activitySet: Record<string, unknown>[] = [
                { event_type: KINDS[c.status] },
                { user_id: user },
                { created_at: c.when },
                { org_id: orgs[c.org] },
                { message: `m ${c.when}` },
              ];
              await h.db
                .updateTable('deal_activities')
                .set(activitySet[c.column % activitySet.length])
                .where('deal_id', '=', id)
                .execute();
              const ticketSet: Record<string, unknown>[] = [
                { owner_user_id: user },
                { status: TICKET_STATUSES[c.status] },
                { closed_at: c.when },
                { created_at: c.when },
                { org_id: orgs[c.org] },
                { title: `T ${c.when}` },
              ];
              await h.db
                .updateTable('tickets')
                .set(ticketSet[c.column % ticketSet.length])
                .where('id', '=', t)
                .execute();
              const logSet: Record<string, unknown>[] = [{ author_user_id: user }, { created_at: c.when }, { org_id: orgs[c.org] }, { note: `n ${c.when}` }];
              await h.db
                .updateTable('support_logs')
                .set(logSet[c.column % logSet.length])
                .where('ticket_id', '=', t)
                .execute();
            }
          }
          assert.deepEqual(await daily(a.accountId), await recountDaily(a.accountId));
        }),
        { numRuns },
      );
    };

    test('property: updates of one column at a time, of every table, keep the daily facts equal to a recount of the records (each fact moves when a column it reads changes, and only then)', async () => {
      await singleColumnUpdates(15);
    });

    test('the update triggers as 0160 wrote them (migration 2026-11-28T0300 down) count the same, and up moves only what changed again', async () => {
      // Down and up in the migrations' order: 0310 rewrites (on PostgreSQL) the bodies 0300 writes.
      await counters0310.down(h.db as never);
      await moves0300.down(h.db as never);
      try {
        await singleColumnUpdates(4);
      } finally {
        await moves0300.up(h.db as never);
        await counters0310.up(h.db as never);
      }
      await singleColumnUpdates(4);
    });

    test('the counter statements as their migrations wrote them (2026-11-28T0310 down: sub-selects, no `if`) count the same as rewritten, and up rewrites them as before', async () => {
      // The counter trigger functions' text (PostgreSQL; SQLite has no functions and nothing to rewrite).
      const texts = async () =>
        engine === 'sqlite'
          ? []
          : (
              await sql<{ proname: string; prosrc: string }>`select proname, prosrc from pg_proc
                where pronamespace = current_schema()::regnamespace and prorettype = 'trigger'::regtype order by proname`.execute(h.db)
            ).rows;
      const rewritten = await texts();
      if (engine === 'postgres') {
        assert.ok(
          rewritten.some((f) => f.prosrc.includes('custops_month_start(')),
          'the rewrite is in place',
        );
        // Its first days of months and years, against the calendar, from year 1 to 9999 (as the
        // sub-selects it replaces, its divisions truncate: before year 1 it is not the calendar's).
        const days = [-719162, -719131, -1, 0, 58, 59, 60, 11016, 20423, 2932896];
        for (let d = -719162; d < 2_932_897; d += 9973) days.push(d);
        const got = await sql<{ d: string; m: string; y: string }>`select d, custops_month_start(d) as m, custops_year_start(d) as y
          from unnest(${days.map(String)}::bigint[]) as d`.execute(h.db);
        for (const r of got.rows) {
          const at = new Date(Number(r.d) * 86_400_000);
          // setUTCFullYear, not Date.UTC (which reads years 0 to 99 as 1900 to 1999).
          const first = (month: number) => new Date(0).setUTCFullYear(at.getUTCFullYear(), month, 1) / 86_400_000;
          const expected = [first(at.getUTCMonth()), first(0)];
          assert.deepEqual([Number(r.m), Number(r.y)], expected, `day ${r.d}`);
        }
        assert.equal(got.rows.length, days.length);
      }
      await counters0310.down(h.db as never);
      try {
        if (engine === 'postgres') assert.ok(!(await texts()).some((f) => f.prosrc.includes('custops_')), 'down restores the sub-selects');
        await singleColumnUpdates(3);
      } finally {
        await counters0310.up(h.db as never);
      }
      assert.deepEqual(await texts(), rewritten);
      await singleColumnUpdates(3);
    });

    test('the rewrite (2026-11-28T0310) refuses counter functions it does not recognise, and writes nothing', async (t) => {
      if (engine === 'sqlite') return t.skip('SQLite has no trigger functions to rewrite');
      const body = async () =>
        (
          await sql<{
            prosrc: string;
          }>`select prosrc from pg_proc where proname = 'list_counts_orgs_ai' and pronamespace = current_schema()::regnamespace`.execute(h.db)
        ).rows[0].prosrc;
      await counters0310.down(h.db as never);
      const original = await body();
      // A counting statement of a form the rewrite does not know (its values read a table).
      const unknown = `begin insert into list_counts (account_id, list, bucket, shard, n) select a.id, 'orgs', '', 0, 1 from accounts a where a.id = new.account_id
        on conflict (account_id, list, bucket, shard) do update set n = list_counts.n + excluded.n; return null; end`;
      await sql.raw(`create or replace function list_counts_orgs_ai() returns trigger language plpgsql as $b$${unknown}$b$`).execute(h.db);
      try {
        await assert.rejects(counters0310.up(h.db as never), /counter triggers not as expected: 40 functions \(40 expected\), \d+ of \d+ statements rewritten/);
        assert.equal(await body(), unknown, 'nothing rewritten');
        const helpers = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_proc where proname like 'custops\_%' and pronamespace = current_schema()::regnamespace`.execute(h.db);
        assert.equal(helpers.rows[0].n, 0, 'no helper function created');
      } finally {
        await sql.raw(`create or replace function list_counts_orgs_ai() returns trigger language plpgsql as $b$${original}$b$`).execute(h.db);
        await counters0310.up(h.db as never);
      }
    });
  });
}

/** The daily rollup's own facts (migration 2026-11-21T0160: not the month and total levels, not the funnel), as sorted text. */
const DAILY =
  /^(deal_(created|won_owner|lost_owner|won_closer|lost_closer)|activity_(kind|user)|ticket_(created|closed)|support_log|org_(deal_created|deal_won|activity|ticket_created|ticket_closed|support_log)(_year)?)$/;

async function daily(accountId: number): Promise<string[]> {
  const rows = await h0()
    .db.selectFrom('analytics_daily')
    .select(['fact', 'day', 'dim', 'n'])
    .where('account_id', '=', accountId)
    .where('n', '<>', 0)
    .execute();
  return rows
    .filter((r) => DAILY.test(r.fact))
    .map((r) => `${r.fact} ${r.day} ${r.dim} ${r.n}`)
    .sort();
}

/** The same rows counted from the records (docs/design.md#analytics). */
async function recountDaily(accountId: number): Promise<string[]> {
  const db = h0().db;
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const day = (ms: number) => Math.floor(ms / 86_400_000);
  const month = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1) / 86_400_000;
  const year = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1) / 86_400_000;
  const perOrg = (fact: string, ms: number, orgId: number) => {
    add(`${fact} ${month(ms)} ${orgId}`);
    add(`${fact}_year ${year(ms)} ${orgId}`);
  };
  for (const d of await db.selectFrom('deals').selectAll().where('account_id', '=', accountId).execute()) {
    add(`deal_created ${day(Number(d.created_at))} ${d.owner_user_id ?? 0}`);
    perOrg('org_deal_created', Number(d.created_at), Number(d.org_id));
    if ((d.status === 'won' || d.status === 'lost') && d.closed_at !== null) {
      add(`deal_${d.status}_owner ${day(Number(d.closed_at))} ${d.owner_user_id ?? 0}`);
      add(`deal_${d.status}_closer ${day(Number(d.closed_at))} ${d.closed_by_user_id ?? 0}`);
      if (d.status === 'won') perOrg('org_deal_won', Number(d.closed_at), Number(d.org_id));
    }
  }
  const KIND: Record<string, number> = { note: 1, email: 2, call: 3, meeting: 4 };
  for (const x of await db.selectFrom('deal_activities').selectAll().where('account_id', '=', accountId).execute()) {
    add(`activity_kind ${day(Number(x.created_at))} ${KIND[x.event_type]}`);
    add(`activity_user ${day(Number(x.created_at))} ${x.user_id ?? 0}`);
    perOrg('org_activity', Number(x.created_at), Number(x.org_id));
  }
  for (const t of await db.selectFrom('tickets').selectAll().where('account_id', '=', accountId).execute()) {
    add(`ticket_created ${day(Number(t.created_at))} ${t.owner_user_id ?? 0}`);
    perOrg('org_ticket_created', Number(t.created_at), Number(t.org_id));
    if (t.status === 'closed' && t.closed_at !== null) {
      add(`ticket_closed ${day(Number(t.closed_at))} ${t.owner_user_id ?? 0}`);
      perOrg('org_ticket_closed', Number(t.closed_at), Number(t.org_id));
    }
  }
  for (const l of await db.selectFrom('support_logs').selectAll().where('account_id', '=', accountId).execute()) {
    add(`support_log ${day(Number(l.created_at))} ${l.author_user_id ?? 0}`);
    perOrg('org_support_log', Number(l.created_at), Number(l.org_id));
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).sort();
}

const LEVELLED = /_(month|total)$|^org_open_/;

/** The account's rows of the levels and kept figures, as sorted text. */
async function kept(accountId: number): Promise<string[]> {
  const daily = await h0()
    .db.selectFrom('analytics_daily')
    .select(['fact', 'day', 'dim', 'n'])
    .where('account_id', '=', accountId)
    .where('n', '<>', 0)
    .execute();
  const reasons = await h0().db.selectFrom('analytics_lost_reasons').selectAll().where('account_id', '=', accountId).where('n', '<>', 0).execute();
  return [
    ...daily.filter((r) => LEVELLED.test(r.fact)).map((r) => `${r.fact} ${r.day} ${r.dim} ${r.n}`),
    ...reasons.map((r) => `lost ${r.day} ${r.missing % 2 ? null : r.code} ${r.missing >= 2 ? null : r.label} ${r.n}`),
  ].sort();
}

/** The same rows counted from the records, by the definitions of docs/design.md#analytics. */
async function recount(accountId: number): Promise<string[]> {
  const db = h0().db;
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const day = (ms: number) => Math.floor(ms / 86_400_000);
  const month = (ms: number) => {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 86_400_000;
  };
  const both = (fact: string, at: number, dim: number | null, total: boolean) => {
    add(`${fact}_month ${month(at)} ${dim ?? 0}`);
    if (total) add(`${fact}_total ${day(at)} 0`);
  };
  for (const d of await db.selectFrom('deals').selectAll().where('account_id', '=', accountId).execute()) {
    both('deal_created', Number(d.created_at), d.owner_user_id, true);
    if ((d.status === 'won' || d.status === 'lost') && d.closed_at !== null) {
      both(`deal_${d.status}_owner`, Number(d.closed_at), d.owner_user_id, true);
      both(`deal_${d.status}_closer`, Number(d.closed_at), d.closed_by_user_id, false);
      if (d.status === 'lost') add(`lost ${month(Number(d.closed_at))} ${d.lost_reason_code} ${d.lost_reason_label}`);
    }
    if (['new', 'qualified', 'proposal', 'negotiation'].includes(d.status)) add(`org_open_deal 0 ${d.org_id}`);
  }
  const KIND: Record<string, number> = { note: 1, email: 2, call: 3, meeting: 4 };
  for (const x of await db.selectFrom('deal_activities').selectAll().where('account_id', '=', accountId).execute()) {
    both('activity_kind', Number(x.created_at), KIND[x.event_type], false);
    both('activity_user', Number(x.created_at), x.user_id, false);
  }
  for (const t of await db.selectFrom('tickets').selectAll().where('account_id', '=', accountId).execute()) {
    both('ticket_created', Number(t.created_at), t.owner_user_id, true);
    if (t.status === 'closed' && t.closed_at !== null) both('ticket_closed', Number(t.closed_at), t.owner_user_id, true);
    if (t.status === 'open' || t.status === 'pending') add(`org_open_ticket 0 ${t.org_id}`);
  }
  for (const l of await db.selectFrom('support_logs').selectAll().where('account_id', '=', accountId).execute()) {
    both('support_log', Number(l.created_at), l.author_user_id, true);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).sort();
}
