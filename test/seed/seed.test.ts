import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { seedAccount, SeedInputError } from '../../src/seed/seed.ts';
import { planFor } from '../../src/seed/plan.ts';
import { engines, createTestDatabase, type TestDatabase } from '../helpers/engines.ts';
import { keptOpenPipeline, recountOpenPipeline } from '../helpers/open-pipeline.ts';

const clock = new FixedClock(Date.UTC(2026, 10, 20, 15, 30));
const DEALS = 400;

async function newAccount(db: Db, name: string): Promise<number> {
  const r = await db.insertInto('accounts').values({ name, created_at: clock.now() }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/**
 * The account's rollups with ids replaced by what they stand for (a user's e-mail, an org's
 * position among the account's orgs), so two accounts seeded alike compare equal.
 */
async function normalizedRollups(db: Db, accountId: number): Promise<string[]> {
  const users = new Map(
    (await db.selectFrom('users').select(['id', 'email_lc']).where('account_id', '=', accountId).execute()).map((u) => [Number(u.id), u.email_lc]),
  );
  const orgIds = (await db.selectFrom('orgs').select('id').where('account_id', '=', accountId).orderBy('id').execute()).map((o) => Number(o.id));
  const orgPos = new Map(orgIds.map((id, i) => [id, i]));
  const rows = await db.selectFrom('analytics_daily').select(['fact', 'day', 'dim', 'n']).where('account_id', '=', accountId).where('n', '<>', 0).execute();
  return rows
    .map((r) => {
      const dim = Number(r.dim);
      const named = r.fact.startsWith('org_')
        ? `org#${orgPos.get(dim)}`
        : r.fact.startsWith('activity_kind') || r.fact === 'funnel_stage'
          ? String(dim)
          : dim === 0
            ? 'none'
            : users.get(dim);
      assert.ok(named !== undefined, `dimension ${dim} of ${r.fact} is a record of the account`);
      return `${r.fact} ${r.day} ${named} ${Number(r.n)}`;
    })
    .sort();
}

/** The kept list totals of an account by list and bucket (shards summed). */
async function listCounts(db: Db, accountId: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('list_counts')
    .select(['list', 'bucket', (e) => e.fn.sum<number>('n').as('n')])
    .where('account_id', '=', accountId)
    .groupBy(['list', 'bucket'])
    .orderBy('list')
    .orderBy('bucket')
    .execute();
  return Object.fromEntries(rows.map((r) => [`${r.list} ${r.bucket}`, Number(r.n)]));
}

/** Deals as plain values (no ids), in id order. */
async function dealValues(db: Db, accountId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('deals')
    .select(['title', 'status', 'value_cents', 'created_at', 'closed_at', 'lost_reason_code', 'last_activity_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.stringify(Object.values(r).map((v) => (v === null ? null : String(v)))));
}

/**
 * The account's `deals_open_activity` rows (migration 2026-11-28T0400; a table kept by a trigger the
 * seed's bulk writes bypass on PostgreSQL, a view on SQLite) and the same projection of its open deals.
 */
async function openActivity(db: Db, accountId: number): Promise<{ kept: string[]; open: string[] }> {
  const kept = await db
    .selectFrom('deals_open_activity')
    .select(['deal_id', 'owner_user_id', 'last_activity_at'])
    .where('account_id', '=', accountId)
    .orderBy('deal_id')
    .execute();
  const open = await db
    .selectFrom('deals')
    .select(['id', 'owner_user_id', 'last_activity_at'])
    .where('account_id', '=', accountId)
    .where('status', 'in', ['new', 'qualified', 'proposal', 'negotiation'])
    .orderBy('id')
    .execute();
  return {
    kept: kept.map((r) => `${r.deal_id} ${r.owner_user_id} ${r.last_activity_at}`),
    open: open.map((r) => `${r.id} ${r.owner_user_id} ${r.last_activity_at}`),
  };
}

for (const engine of engines()) {
  describe(`custops seed [${engine}]`, () => {
    let t: TestDatabase;
    let db: Db;
    before(async () => {
      t = await createTestDatabase(engine);
      db = t.handle.db;
    });
    after(() => t.drop());

    test('bulk writes leave the same rollups as the row triggers, and the same rows for the same seed, over several batches', async () => {
      const direct = await newAccount(db, 'direct');
      const triggered = await newAccount(db, 'triggered');
      // Units of 70 deals: six units, so several batches (and on PostgreSQL two written side by side).
      const a = await seedAccount(t.handle, clock, { accountId: direct, deals: DEALS, seed: 7, mode: 'direct', unit: 70 });
      const b = await seedAccount(t.handle, clock, { accountId: triggered, deals: DEALS, seed: 7, mode: 'triggers', unit: 70 });
      assert.deepEqual(a, b);
      assert.deepEqual(await dealValues(db, direct), await dealValues(db, triggered));
      const rollups = await normalizedRollups(db, direct);
      assert.ok(rollups.length > 100, 'the seed produced rollups');
      assert.deepEqual(rollups, await normalizedRollups(db, triggered));
      assert.deepEqual(await listCounts(db, direct), await listCounts(db, triggered));
      assert.equal((await listCounts(db, direct))['deals '], DEALS);
      for (const account of [direct, triggered]) {
        const { kept, open } = await openActivity(db, account);
        assert.ok(open.length > 10, 'the seed made open deals');
        assert.deepEqual(kept, open);
        const pipeline = await keptOpenPipeline(db, account);
        assert.ok(Object.keys(pipeline).length > 3, 'open deals of several statuses and currencies');
        assert.deepEqual(pipeline, await recountOpenPipeline(db, account));
      }
    });

    test('the counts are in proportion and every status history ends at the deal status', async () => {
      const accountId = await newAccount(db, 'proportions');
      const counts = await seedAccount(t.handle, clock, { accountId, deals: 1000, seed: 3 });
      const plan = planFor(1000);
      assert.equal(counts.deals, 1000);
      assert.equal(counts.orgs, plan.orgs);
      assert.equal(counts.contacts, plan.contacts);
      assert.equal(counts.tickets, plan.tickets);
      assert.ok(counts.deal_activities > 2500 && counts.deal_activities < 3500, `about 3,000 activities (${counts.deal_activities})`);
      assert.ok(counts.support_logs >= counts.tickets, 'every ticket has its first log');
      const mismatched = await sql<{ n: number }>`
        select count(*) as n from deals d where d.account_id = ${accountId} and d.status <> (
          select h.to_status from deal_status_history h where h.deal_id = d.id order by h.changed_at desc, h.id desc limit 1)`.execute(db);
      assert.equal(Number(mismatched.rows[0].n), 0);
      const broken = await sql<{ n: number }>`
        select count(*) as n from deal_status_history h where h.account_id = ${accountId} and h.from_status is not null and h.from_status <> (
          select p.to_status from deal_status_history p where p.deal_id = h.deal_id and p.id < h.id order by p.id desc limit 1)`.execute(db);
      assert.equal(Number(broken.rows[0].n), 0);
      const closed = await db
        .selectFrom('deals')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('status', 'in', ['won', 'lost'])
        .where('closed_at', 'is', null)
        .executeTakeFirstOrThrow();
      assert.equal(Number(closed.n), 0, 'closed deals carry closed_at');
      const span = await db
        .selectFrom('deals')
        .select((e) => [e.fn.min('created_at').as('lo'), e.fn.max('created_at').as('hi')])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      assert.ok(Number(span.hi) - Number(span.lo) > 700 * 86_400_000, 'dates spread over two years');
    });

    test('an unknown account is refused before anything is written', async () => {
      const before = await db
        .selectFrom('deals')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await assert.rejects(seedAccount(t.handle, clock, { accountId: 987654, deals: 10, seed: 1 }), SeedInputError);
      const afterCount = await db
        .selectFrom('deals')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n));
    });

    if (engine === 'sqlite') {
      test('a seed that fails inside its transaction leaves the row triggers and foreign-key checks as they were, and nothing written', async () => {
        const triggers = async () =>
          (await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' order by name`.execute(db)).rows;
        const before = await triggers();
        // The search index refuses an account id past its range (2^23): the first transaction fails after the seed dropped the triggers it replays.
        const beyond = 2 ** 23;
        await db.insertInto('accounts').values({ id: beyond, name: 'beyond', created_at: clock.now() }).execute();
        await assert.rejects(seedAccount(t.handle, clock, { accountId: beyond, deals: 200, seed: 1, unit: 50 }));
        assert.deepEqual(await triggers(), before, 'every trigger is back, as it was');
        assert.equal(Number((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0].foreign_keys), 1);
        for (const table of ['users', 'orgs', 'contacts', 'deals', 'list_counts'] as const) {
          const n = await db
            .selectFrom(table)
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('account_id', '=', beyond)
            .executeTakeFirstOrThrow();
          assert.equal(Number(n.n), 0, table);
        }
      });
    }
  });
}
