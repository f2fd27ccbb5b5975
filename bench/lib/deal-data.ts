// Bench data for the write scenarios, the same rows on SQLite and PostgreSQL: generated in this
// process and written with multi-row INSERTs through Kysely, so one code path serves both engines.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { DealActivitiesTable, DealStatus, DealsTable } from '../../src/db/schema.ts';
import { Random } from '../../src/demo/random.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { userRow } from '../../test/helpers/user-row.ts';

export type Engine = 'sqlite' | 'postgres';

/** A migrated, empty database of its own: a temporary SQLite file or a scratch PostgreSQL schema. */
export interface ScratchDatabase {
  engine: Engine;
  /** The URL a server child gets as DATABASE_URL (PostgreSQL: the schema is in `options=-c search_path`). */
  url: string;
  /** A small pool in this process, for seeding and auditing. */
  handle: DatabaseHandle;
  /** A folder for files of this run (the SQLite database, the server's data dir). */
  dir: string;
  drop(): Promise<void>;
}

export function postgresBaseUrl(): string | undefined {
  return process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL || undefined;
}

async function onAdmin(base: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

export async function createScratchDatabase(engine: Engine): Promise<ScratchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-bench-'));
  const removeDir = async () => rmSync(dir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    const url = `sqlite:${join(dir, 'bench.db')}`;
    const handle = openDatabase(url);
    await migrateToLatest(handle.db);
    return {
      engine,
      url,
      handle,
      dir,
      drop: async () => {
        await handle.close();
        await removeDir();
      },
    };
  }
  const base = postgresBaseUrl();
  if (!base) throw new Error('PostgreSQL: set BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await onAdmin(base, `create schema ${schema}`);
  const handle = openDatabase(base, { schema, poolSize: 4 });
  try {
    await migrateToLatest(handle.db, schema);
  } catch (err) {
    await handle.close();
    await onAdmin(base, `drop schema if exists ${schema} cascade`);
    throw err;
  }
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    engine,
    url,
    handle,
    dir,
    async drop() {
      await handle.close();
      await onAdmin(base, `drop schema if exists ${schema} cascade`);
      await removeDir();
    },
  };
}

export interface SeededDeals {
  accountId: number;
  /** A full-access key whose rate limit never interferes with the load. */
  key: string;
  /** The deal the API load writes to (one in the middle of the id range) and its org. */
  dealId: number;
  orgId: number;
  /** Its neighbour, for a baseline's rows: kept apart so each side's writes can be counted. */
  otherDealId: number;
  otherOrgId: number;
}

const STATUSES: DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const KINDS: DealActivitiesTable['event_type'][] = ['note', 'email', 'call', 'meeting'];
const DAY_MS = 86_400_000;

async function inChunks<T>(rows: T[], size: number, write: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/**
 * One account with `deals` deals over 500 orgs and 20 users, and `activities` timeline entries
 * spread over them (so the activity indexes are not empty when writes are measured); analyzed.
 */
export async function seedDeals(h: DatabaseHandle, options: { deals: number; activities: number; seed?: number }): Promise<SeededDeals> {
  const deps = { db: h.db, clock: systemClock };
  const { account, owner } = await createAccount(deps, { name: 'Bench Co', ownerEmail: 'owner@bench.example' });
  const key = await createApiKey(deps, { accountId: account.id, name: 'bench', scopes: ['*'], rateLimitPerMinute: 1_000_000_000 });
  const A = account.id;
  const rnd = new Random(options.seed ?? 1);
  const now = Date.now();
  const deals = await h.db.transaction().execute(async (trx) => {
    // PostgreSQL's row triggers (the analytics rollup) cost a minute on these 120k rows; this scenario never reads
    // the rollup, and the triggers are back on for the measured writes (SQLite fires them in seconds: kept there).
    if (h.dialect === 'postgres') await sql`alter table deals disable trigger user; alter table deal_activities disable trigger user`.execute(trx);
    const users = await trx
      .insertInto('users')
      .values(Array.from({ length: 19 }, (_, i) => userRow({ accountId: A, email: `rep${i + 1}@bench.example`, displayName: `Rep ${i + 1}`, at: now })))
      .returning('id')
      .execute();
    const userIds = [owner!.id, ...users.map((u) => Number(u.id))];
    const orgs = await trx
      .insertInto('orgs')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          account_id: A,
          name: `Customer ${i}`,
          name_lc: `customer ${i}`,
          domain: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    const orgIds = orgs.map((o) => Number(o.id));
    const dealRows: Insertable<DealsTable>[] = [];
    for (let i = 0; i < options.deals; i++) {
      const status = rnd.pick(STATUSES);
      const created = now - rnd.int(0, 720 * 24 * 60) * 60_000;
      const updated = created + Math.floor(rnd.next() * (now - created));
      const closed = status === 'won' || status === 'lost';
      const dealOwner = rnd.pick(userIds);
      const title = `Deal ${i} ${rnd.token(6)}`;
      dealRows.push({
        account_id: A,
        org_id: rnd.pick(orgIds),
        owner_user_id: dealOwner,
        title,
        title_lc: title.toLowerCase(),
        status,
        value_cents: rnd.int(1, 5000) * 100,
        currency: 'USD',
        next_followup_at: closed ? null : now + rnd.int(-30, 30) * DAY_MS,
        lost_reason_code: status === 'lost' ? 'price' : null,
        lost_reason_label: status === 'lost' ? 'Too expensive' : null,
        closed_at: closed ? updated : null,
        closed_by_user_id: closed ? dealOwner : null,
        last_activity_at: updated,
        created_at: created,
        updated_at: updated,
      });
    }
    const inserted: { id: number; org_id: number }[] = [];
    await inChunks(dealRows, 500, async (chunk) => {
      inserted.push(...(await trx.insertInto('deals').values(chunk).returning(['id', 'org_id']).execute()));
    });
    const activityRows: Insertable<DealActivitiesTable>[] = [];
    for (let i = 0; i < options.activities; i++) {
      const deal = inserted[(i * 7919) % inserted.length];
      activityRows.push({
        account_id: A,
        deal_id: deal.id,
        org_id: deal.org_id,
        event_type: KINDS[i % 4],
        message: `Seeded activity ${i}`,
        outcome: null,
        source_app: 'seed',
        external_reference: null,
        metadata: null,
        user_id: null,
        created_at: now - (options.activities - i) * 60_000,
      });
    }
    await inChunks(activityRows, 1000, async (chunk) => {
      await trx.insertInto('deal_activities').values(chunk).execute();
    });
    if (h.dialect === 'postgres') await sql`alter table deals enable trigger user; alter table deal_activities enable trigger user`.execute(trx);
    return inserted;
  });
  // Planner statistics, as a database that has lived a while would have them.
  for (const table of ['users', 'orgs', 'deals', 'deal_activities', 'events', 'idempotency_keys']) await sql.raw(`analyze ${table}`).execute(h.db);
  const [middle, next] = [deals[deals.length >> 1], deals[(deals.length >> 1) + 1]];
  return {
    accountId: A,
    key: key.secret,
    dealId: Number(middle.id),
    orgId: Number(middle.org_id),
    otherDealId: Number(next.id),
    otherOrgId: Number(next.org_id),
  };
}
