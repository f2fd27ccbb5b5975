import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import * as openDealActivity from '../../src/db/migrations/2026-11-28T0400_open_deal_activity.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { activity, at, deal, org, user } from './analytics-fixture.ts';

// `deals_open_activity` (migration 2026-11-28T0400_open_deal_activity): each open deal's account,
// owner and last activity, which the sales report counts for `deals_without_activity_14d`. A table
// kept by a trigger on PostgreSQL, so that a timeline entry's move of its deal's last activity
// touches none of the deal's indexes (a HOT update); a view of the open deals on SQLite.

const NOW = '2026-11-21T12:00:00.000Z';
const DAY = 86_400_000;
const STATUSES = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;

for (const engine of engines()) {
  describe(`the open deals' last activity [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
    });
    after(() => h.close());

    /** The account's rows of `deals_open_activity`, and the same projection recounted from `deals`. */
    const kept = async (accountId: number) =>
      (
        await sql<{ r: string }>`select deal_id || ':' || coalesce(owner_user_id, 0) || ':' || last_activity_at as r from deals_open_activity
          where account_id = ${accountId} order by deal_id`.execute(h.db)
      ).rows.map((x) => x.r);
    const recounted = async (accountId: number) =>
      (
        await sql<{ r: string }>`select id || ':' || coalesce(owner_user_id, 0) || ':' || last_activity_at as r from deals
          where account_id = ${accountId} and status in ('new', 'qualified', 'proposal', 'negotiation') order by id`.execute(h.db)
      ).rows.map((x) => x.r);
    const idle = async (key: string, owner?: number) => {
      const res = await call(h, 'GET', '/api/v1/analytics/sales', { key, query: owner ? { owner_user_id: owner } : {} });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().open_pipeline.deals_without_activity_14d as number;
    };
    const idleRecount = async (accountId: number, owner?: number) =>
      Number(
        (
          await sql<{ n: number }>`select count(*) as n from deals where account_id = ${accountId}
            and status in ('new', 'qualified', 'proposal', 'negotiation') and last_activity_at < ${at(NOW) - 14 * DAY}
            ${owner ? sql`and owner_user_id = ${owner}` : sql``}`.execute(h.db)
        ).rows[0].n,
      );

    test('property: after inserts, timeline entries, status, owner and last-activity updates and deletes, it holds exactly the open deals, and the report counts them', async () => {
      const when = fc.integer({ min: at('2026-09-01T00:00:00'), max: at('2026-11-21T11:00:00') });
      const step = fc.oneof(
        fc.record({ op: fc.constant('entry' as const), when }),
        fc.record({ op: fc.constant('status' as const), status: fc.constantFrom(...STATUSES) }),
        fc.record({ op: fc.constant('owner' as const), owner: fc.integer({ min: 0, max: 2 }) }),
        fc.record({ op: fc.constant('last' as const), when }),
        fc.record({ op: fc.constant('status+owner' as const), status: fc.constantFrom(...STATUSES), owner: fc.integer({ min: 0, max: 2 }) }),
        fc.record({ op: fc.constant('delete' as const) }),
      );
      const record = fc.record({
        status: fc.constantFrom(...STATUSES),
        owner: fc.integer({ min: 0, max: 2 }),
        created: when,
        steps: fc.array(step, { maxLength: 5 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 8 }), async (records) => {
          const a = await createTestAccount(h);
          const users = [null, await user(h, a.accountId, 'U1'), await user(h, a.accountId, 'U2')];
          const o = await org(h, a.accountId, 'O');
          const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
          for (const r of records) {
            const closed = r.status === 'won' || r.status === 'lost';
            const id = await deal(h, a.accountId, {
              org: o,
              owner: users[r.owner],
              created: iso(r.created),
              status: r.status,
              closed: closed ? iso(r.created) : undefined,
            });
            for (const s of r.steps) {
              if (s.op === 'delete') {
                await h.db.deleteFrom('deals').where('id', '=', id).execute();
                break;
              }
              if (s.op === 'entry') await activity(h, a.accountId, id, o, 'note', users[1], iso(s.when));
              else {
                const set =
                  s.op === 'status'
                    ? { status: s.status }
                    : s.op === 'owner'
                      ? { owner_user_id: users[s.owner] }
                      : s.op === 'last'
                        ? { last_activity_at: s.when }
                        : { status: s.status, owner_user_id: users[s.owner] };
                await h.db.updateTable('deals').set(set).where('id', '=', id).execute();
              }
            }
          }
          assert.deepEqual(await kept(a.accountId), await recounted(a.accountId));
          assert.equal(await idle(a.key), await idleRecount(a.accountId));
          assert.equal(await idle(a.key, users[1]!), await idleRecount(a.accountId, users[1]!));
        }),
        { numRuns: 12 },
      );
    });

    test("another account's deals are not counted, and a deleted account takes its rows", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const stale = iso(at(NOW) - 30 * DAY);
      for (const acc of [a, b]) {
        const o = await org(h, acc.accountId, 'O');
        for (let i = 0; i < (acc === a ? 2 : 5); i++) await deal(h, acc.accountId, { org: o, owner: null, created: stale, status: 'new' });
      }
      assert.equal(await idle(a.key), 2);
      assert.equal(await idle(b.key), 5);
      await h.db.deleteFrom('accounts').where('id', '=', b.accountId).execute();
      assert.deepEqual(await kept(b.accountId), []);
      assert.equal(await idle(a.key), 2);
    });

    test('PostgreSQL: no index of deals holds last_activity_at, and a timeline entry moves its deal by a HOT update', {
      skip: engine !== 'postgres',
    }, async () => {
      const indexed = await sql<{ name: string }>`
        select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
        join pg_attribute c on c.attrelid = x.indrelid and c.attname = 'last_activity_at'
        where x.indrelid = 'deals'::regclass
          and (c.attnum = any(x.indkey::int2[]) or pg_get_expr(x.indexprs, x.indrelid) ~ 'last_activity_at' or pg_get_expr(x.indpred, x.indrelid) ~ 'last_activity_at')`.execute(
        h.db,
      );
      assert.deepEqual(indexed.rows, []);
      const a = await createTestAccount(h);
      const o = await org(h, a.accountId, 'O');
      const id = await deal(h, a.accountId, { org: o, owner: null, created: iso(at(NOW) - 30 * DAY), status: 'qualified' });
      const moved = await h.db.transaction().execute(async (trx) => {
        // This backend's counts not yet reported to the statistics (earlier transactions' included): the difference is this one's.
        const counts = async () =>
          (
            await sql<{ updated: string; hot: string }>`select pg_stat_get_xact_tuples_updated('deals'::regclass) as updated,
              pg_stat_get_xact_tuples_hot_updated('deals'::regclass) as hot`.execute(trx)
          ).rows[0];
        const before = await counts();
        await activity({ ...h, db: trx } as Harness, a.accountId, id, o, 'call', null, iso(at(NOW) - DAY));
        // The deal's update runs at the commit (a deferred trigger): run it now.
        await sql`set constraints all immediate`.execute(trx);
        const after = await counts();
        return { updated: Number(after.updated) - Number(before.updated), hot: Number(after.hot) - Number(before.hot) };
      });
      assert.deepEqual(moved, { updated: 1, hot: 1 });
      assert.deepEqual(await kept(a.accountId), [`${id}:0:${at(NOW) - DAY}`]);
    });

    test('PostgreSQL: the migration down gives the index back to deals, and up copies every open deal again', { skip: engine !== 'postgres' }, async () => {
      const a = await createTestAccount(h);
      const o = await org(h, a.accountId, 'O');
      for (const status of STATUSES) await deal(h, a.accountId, { org: o, owner: null, created: iso(at(NOW) - 20 * DAY), status });
      const before = await kept(a.accountId);
      assert.equal(before.length, 4);
      await openDealActivity.down(h.db as never);
      try {
        const index = await sql<{ n: number }>`select count(*) as n from pg_indexes where indexname = 'analytics_deals_open_activity_idx'`.execute(h.db);
        assert.equal(Number(index.rows[0].n), 1);
        // The report reads the table only: while it is gone, the old index serves a recount.
        assert.equal(await idleRecount(a.accountId), 4);
      } finally {
        await openDealActivity.up(h.db as never);
      }
      assert.deepEqual(await kept(a.accountId), before);
      assert.equal(await idle(a.key), 4);
    });
  });
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
