import type { DatabaseHandle } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { Random } from '../demo/random.ts';
import { rebuildLostReasons } from '../modules/analytics/analytics.sales.repository.ts';
import type { Clock } from '../lib/clock.ts';
import {
  contactRows,
  dealDraft,
  orgRows,
  ticketDraft,
  userRows,
  windowEndingAt,
  type DealDraft,
  type Drawing,
  type People,
  type TicketDraft,
} from './generate.ts';
import { planFor } from './plan.ts';
import { RollupTally } from './tally.ts';
import type { Row, SeedTable } from './tables.ts';
import { openWriter, type BulkWriter } from './writer.ts';

export interface SeedOptions {
  accountId: number;
  deals: number;
  seed: number;
  /** `direct` (default) bypasses row triggers and writes their effect itself; `triggers` lets every trigger fire (slow; tests compare the two). */
  mode?: 'direct' | 'triggers';
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
  /** Deals drawn at a time (UNIT below by default); tests set a small one to seed several batches. */
  unit?: number;
}

export type SeedCounts = Record<'users' | 'orgs' | 'contacts' | 'deals' | 'deal_status_history' | 'deal_activities' | 'tickets' | 'support_logs', number>;

/** This process's CPU time since `from` (user and system, all threads), in ms: on a busy machine a steadier measure than the clock. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return ((d.user + d.system) / 1000).toFixed(0);
};

export class SeedInputError extends Error {}

/**
 * Deals drawn at a time. The random sequence depends on it (a unit draws its deals, then its share of
 * tickets), so it is fixed per engine: the same seed gives the same rows.
 */
const UNIT = { sqlite: 5_000, postgres: 50_000 };
/**
 * Units per transaction. SQLite: two (10,000 deals): every commit writes the index pages the batch
 * touched and every rollup row (most orgs' monthly and yearly rows recur in each batch) once per
 * 10,000 deals instead of twice, and the one writer still holds the lock for about as long as a batch
 * of 5,000 took before its inserts were made cheaper (about 1.7 s of CPU per batch at a million deals).
 * PostgreSQL: one (50,000 deals: for the daily and per-org facts of a million deals, 5.4 million
 * upserts against 7 million in batches of 25,000).
 */
const UNITS_PER_BATCH = { sqlite: 2, postgres: 1 };
/**
 * Batches written side by side, each in its own transaction on its own connection. PostgreSQL: two, so
 * the server's work (mostly index upkeep) runs on two backends while this process draws the next batch;
 * each batch is still one transaction (an interrupted seed leaves whole batches, possibly not a prefix),
 * ids are taken from the sequences in batch order before writing (the same ids as one batch at a time), and
 * rollup rows are upserted in one fixed key order, so two batches adding to the same row wait, never
 * deadlock. Only with the row triggers bypassed: triggers upsert in row order and could deadlock.
 */
const WRITERS = { sqlite: 1, postgres: 2 };

interface Batch {
  size: number;
  deals: DealDraft[];
  tickets: TicketDraft[];
  daily: Row[];
  lists: Row[];
}

/**
 * Fills an existing account with a realistic, deterministic data set in proportion to
 * `deals` (see plan.ts): team users, orgs, contacts, then deals with their status history and
 * timeline, and tickets with their logs, in batches of one transaction each. Every batch
 * commits its rows together with the list counts and analytics rollups they imply (an interrupted
 * seed leaves whole batches only), except the lost reasons by month, which are rebuilt from the
 * deals when the seed ends or fails.
 */
export async function seedAccount(handle: DatabaseHandle, clock: Clock, o: SeedOptions): Promise<SeedCounts> {
  const account = await handle.db.selectFrom('accounts').select('id').where('id', '=', o.accountId).executeTakeFirst();
  if (!account) throw new SeedInputError(`account ${o.accountId} does not exist`);
  const log = o.progress ?? (() => undefined);
  const plan = planFor(o.deals);
  const w = windowEndingAt(clock.now());
  const rnd = new Random(o.seed);
  const A = o.accountId;
  const counts: SeedCounts = { users: 0, orgs: 0, contacts: 0, deals: 0, deal_status_history: 0, deal_activities: 0, tickets: 0, support_logs: 0 };
  const mode = o.mode ?? 'direct';
  const writers = [await openWriter(handle, mode)];
  const tally = writers[0].direct ? new RollupTally(A) : null;
  const started = performance.now();
  const insert = async (writer: BulkWriter, table: SeedTable, rows: Row[], returning = false, ids?: number[]) => {
    counts[table] += rows.length;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const inserted = await writer.insert(table, rows, returning && !ids, ids);
    const got = ids ?? inserted;
    if (process.env.SEED_DEBUG) log(`  ${table} ${rows.length} rows ${(performance.now() - t0).toFixed(0)} ms (cpu ${cpuMs(cpu0)} ms)`);
    // Ids come from a sequence in insertion order; sorted, they line up with the rows whatever order RETURNING used.
    return got.sort((a, b) => a - b);
  };
  /** Writes rollup rows taken from the tally (`takeDaily`, `takeLists`); nothing in triggers mode. */
  const writeTally = async (writer: BulkWriter, daily: Row[], lists: Row[]) => {
    if (!tally) return;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await writer.addCounts('analytics_daily', ['account_id', 'fact', 'day', 'dim'], daily);
    if (process.env.SEED_DEBUG) log(`  analytics_daily ${daily.length} rows ${(performance.now() - t0).toFixed(0)} ms (cpu ${cpuMs(cpu0)} ms)`);
    await writer.addCounts('list_counts', ['account_id', 'list', 'bucket', 'shard'], lists);
  };
  const unit = o.unit ?? UNIT[handle.dialect];
  const batch = unit * UNITS_PER_BATCH[handle.dialect];
  /** Draws the batch of deals from `first`, unit by unit, with its share of tickets, and takes the rollups they imply from the tally. */
  const draw = (first: number): Batch => {
    const size = Math.min(batch, plan.deals - first);
    const drawing: Drawing = { rnd, accountId: A, people, window: w, tally };
    const deals: DealDraft[] = [];
    const tickets: TicketDraft[] = [];
    for (let from = first; from < first + size; from += unit) {
      const n = Math.min(unit, first + size - from);
      const ticketFrom = Math.floor((from * plan.tickets) / plan.deals);
      const ticketTo = Math.floor(((from + n) * plan.tickets) / plan.deals);
      for (let i = from; i < from + n; i++) deals.push(dealDraft(drawing, i, plan.deals));
      for (let i = ticketFrom; i < ticketTo; i++) tickets.push(ticketDraft(drawing, i, plan.tickets));
    }
    return { size, deals, tickets, daily: tally?.takeDaily() ?? [], lists: tally?.takeLists() ?? [] };
  };
  /** Writes one batch in one transaction, under `ids` when they were taken beforehand. */
  const write = (writer: BulkWriter, b: Batch, ids: Partial<Record<SeedTable, number[]>> | null) =>
    writer.transaction(async () => {
      const dealIds = await insert(
        writer,
        'deals',
        b.deals.map((d) => d.deal),
        true,
        ids?.deals,
      );
      const history: Row[] = [];
      const activities: Row[] = [];
      b.deals.forEach((d, i) => {
        for (const h of d.history) history.push([A, dealIds[i], h.from, h.to, h.by, h.at]);
        for (const a of d.activities) activities.push([a[0], dealIds[i], ...a.slice(2)]);
      });
      // One statement at a time on a connection (node-postgres refuses overlapping queries on a client).
      await insert(writer, 'deal_status_history', history, false, ids?.deal_status_history);
      await insert(writer, 'deal_activities', activities, false, ids?.deal_activities);
      const ticketIds = await insert(
        writer,
        'tickets',
        b.tickets.map((t) => t.ticket),
        true,
        ids?.tickets,
      );
      const logs: Row[] = [];
      b.tickets.forEach((t, i) => {
        for (const l of t.logs) logs.push([l[0], ticketIds[i], ...l.slice(2)]);
      });
      await insert(writer, 'support_logs', logs, false, ids?.support_logs);
      await writeTally(writer, b.daily, b.lists);
    });
  let people: People = { users: [], supportUsers: [], orgs: [], contactsByOrg: [] };
  /** Closes every writer and rebuilds the lost reasons, each whatever the others do; returns what failed. */
  const cleanUp = async (): Promise<unknown[]> => {
    const errors: unknown[] = [];
    for (const writer of writers) await writer.close().catch((err: unknown) => errors.push(err));
    // Kept by row triggers, which bulk writes bypass; rebuilt from the account's deals (small: a row per
    // month and reason), also when a batch failed, so the committed batches' lost reasons are counted.
    // Between a batch's commit and this rebuild (and after a killed seed) they lag the deals.
    await rebuildLostReasons(handle.db, A).catch((err: unknown) => errors.push(err));
    return errors;
  };
  try {
    // Team users by a fixed e-mail: a second seed of the same account reuses them.
    const wanted = userRows(A, plan.users, w);
    const existing = await handle.db
      .selectFrom('users')
      .select(['id', 'email_lc'])
      .where('account_id', '=', A)
      .where(
        'email_lc',
        'in',
        wanted.map((r) => r[2] as string),
      )
      .execute();
    const idByEmail = new Map(existing.map((u) => [u.email_lc, Number(u.id)]));
    people = await writers[0].transaction(async (): Promise<People> => {
      const missing = wanted.filter((r) => !idByEmail.has(r[2] as string));
      const newIds = await insert(writers[0], 'users', missing, true);
      for (const [i, r] of missing.entries()) idByEmail.set(r[2] as string, newIds[i]);
      const team = wanted.map((r) => ({ id: idByEmail.get(r[2] as string)!, support: r[6] === true }));
      const orgs = orgRows(rnd, A, plan.orgs, w);
      const orgIds = await insert(writers[0], 'orgs', orgs, true);
      const contacts = contactRows(rnd, A, orgIds, orgs, plan.contacts);
      const contactIds = await insert(writers[0], 'contacts', contacts.rows, true);
      const contactsByOrg: number[][] = orgIds.map(() => []);
      for (const [i, id] of contactIds.entries()) contactsByOrg[contacts.orgOf[i]].push(id);
      for (let i = 0; i < orgs.length; i++) tally?.count('orgs', '');
      for (let i = 0; i < contactIds.length; i++) tally?.count('contacts', '');
      await writeTally(writers[0], tally?.takeDaily() ?? [], tally?.takeLists() ?? []);
      return { users: team.map((u) => u.id), supportUsers: team.filter((u) => u.support).map((u) => u.id), orgs: orgIds, contactsByOrg };
    });
    log(`seed: ${people.users.length} users, ${people.orgs.length} orgs, ${counts.contacts} contacts`);
    const side = writers[0].direct && plan.deals > batch ? Math.min(WRITERS[handle.dialect], poolRoom(handle)) : 1;
    while (writers.length < side) writers.push(await openWriter(handle, mode));
    const idle = [...writers];
    const running = new Set<Promise<void>>();
    let failure: { err: unknown } | undefined;
    let done = 0;
    let next = plan.deals > 0 ? draw(0) : undefined;
    try {
      for (let first = 0; next && !failure; first += batch) {
        const b: Batch = next;
        while (idle.length === 0 && !failure) await Promise.race(running);
        if (failure) break;
        const writer = idle.pop()!;
        // Taken in batch order, before the batch is handed over (SQLite: null, the one writer numbers them in order).
        const ids = await writer.reserveIds({
          deals: b.deals.length,
          deal_status_history: b.deals.reduce((n, d) => n + d.history.length, 0),
          deal_activities: b.deals.reduce((n, d) => n + d.activities.length, 0),
          tickets: b.tickets.length,
          support_logs: b.tickets.reduce((n, t) => n + t.logs.length, 0),
        });
        const written: Promise<void> = write(writer, b, ids).then(
          () => {
            done += b.size;
            log(
              `seed: ${done.toLocaleString('en')} / ${plan.deals.toLocaleString('en')} deals (${Math.round((done * 100) / plan.deals)} %), ${((performance.now() - started) / 1000).toFixed(1)} s`,
            );
            idle.push(writer);
            running.delete(written);
          },
          (err: unknown) => {
            failure ??= { err };
            running.delete(written);
          },
        );
        running.add(written);
        // Drawn while the database writes the batches in hand (the same random sequence as drawing it after their commit).
        next = first + batch < plan.deals ? draw(first + batch) : undefined;
      }
    } finally {
      await Promise.all(running);
    }
    if (failure) throw failure.err;
  } catch (err) {
    // The error that stopped the seed is the one it throws; failures of the clean-up after it are logged.
    for (const e of await cleanUp()) log(`seed: after the failure, cleaning up failed too: ${e instanceof Error ? e.message : String(e)}`);
    throw err;
  }
  const cleanupErrors = await cleanUp();
  if (cleanupErrors.length > 0) throw cleanupErrors[0];
  await refreshStatistics(handle, log);
  log(`seed: planner statistics refreshed, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return counts;
}

/** Connections the seed may hold at once: one less than the pool (PostgreSQL), one on SQLite. */
function poolRoom(handle: DatabaseHandle): number {
  return handle.pool ? Math.max(1, (handle.pool.options.max ?? 10) - 1) : 1;
}

/**
 * The tables the seed writes, in two groups of about equal size: PostgreSQL refreshes them on two
 * connections at once (`VACUUM (ANALYZE)` of one group each; at a million deals the two groups take
 * about as long), SQLite all in one `ANALYZE`.
 */
const SEEDED_TABLES = [
  ['deal_activities', 'deals', 'tickets', 'contacts', 'orgs', 'users'],
  ['deal_status_history', 'analytics_daily', 'support_logs', 'list_counts', 'analytics_lost_reasons', 'deals_open_activity'],
];

/** After a bulk load the planners need fresh statistics to pick the right index (SQLite has none until ANALYZE runs). */
async function refreshStatistics(handle: DatabaseHandle, log: (line: string) => void): Promise<void> {
  const engine = engineOf(handle.db);
  const refresh = async (tables: string[]) => {
    const t0 = performance.now();
    await engine.refreshStatistics(handle.db, tables);
    if (process.env.SEED_DEBUG) log(`  statistics of ${tables.join(', ')} ${(performance.now() - t0).toFixed(0)} ms`);
  };
  if (handle.pool && poolRoom(handle) >= 2) await Promise.all(SEEDED_TABLES.map(refresh));
  else await refresh(SEEDED_TABLES.flat());
}
