import type { DatabaseHandle } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { Random } from '../demo/random.ts';
import { rebuildLostReasons } from '../modules/analytics/analytics.sales.repository.ts';
import type { Clock } from '../lib/clock.ts';
import { contactRows, dealDrafts, orgRows, ticketDrafts, userRows, windowEndingAt, type People } from './generate.ts';
import { planFor } from './plan.ts';
import { RollupTally } from './tally.ts';
import type { Row, SeedTable } from './tables.ts';
import { openWriter } from './writer.ts';

export interface SeedOptions {
  accountId: number;
  deals: number;
  seed: number;
  /** `direct` (default) bypasses row triggers and writes their effect itself; `triggers` lets every trigger fire (slow; tests compare the two). */
  mode?: 'direct' | 'triggers';
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
}

export type SeedCounts = Record<'users' | 'orgs' | 'contacts' | 'deals' | 'deal_status_history' | 'deal_activities' | 'tickets' | 'support_logs', number>;

/** This process's CPU time since `from` (user and system, all threads), in ms: on a busy machine a steadier measure than the clock. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return ((d.user + d.system) / 1000).toFixed(0);
};

export class SeedInputError extends Error {}

/**
 * Deals per transaction: large enough for bulk speed, small enough that a SQLite writer never holds the
 * lock for long. PostgreSQL readers never wait for a writer, and every batch adds to most orgs' monthly
 * and yearly rollup rows again, so fewer, larger batches there write fewer rollup rows (for the daily and
 * per-org facts of a million deals, 5.4 million upserts in batches of 50,000 against 7 million in batches of 25,000).
 */
const BATCH = { sqlite: 5_000, postgres: 50_000 };

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
  const writer = await openWriter(handle, o.mode ?? 'direct');
  const tally = writer.direct ? new RollupTally(A) : null;
  const started = performance.now();
  const insert = async (table: SeedTable, rows: Row[], returning = false) => {
    counts[table] += rows.length;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const ids = await writer.insert(table, rows, returning);
    if (process.env.SEED_DEBUG) log(`  ${table} ${rows.length} rows ${(performance.now() - t0).toFixed(0)} ms (cpu ${cpuMs(cpu0)} ms)`);
    // Ids come from a sequence in insertion order; sorted, they line up with the rows whatever order RETURNING used.
    return ids.sort((a, b) => a - b);
  };
  /** Writes rollup rows taken from the tally (`takeDaily`, `takeLists`); nothing in triggers mode. */
  const writeTally = async (daily: Row[], lists: Row[]) => {
    if (!tally) return;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await writer.addCounts('analytics_daily', ['account_id', 'fact', 'day', 'dim'], daily);
    if (process.env.SEED_DEBUG) log(`  analytics_daily ${daily.length} rows ${(performance.now() - t0).toFixed(0)} ms (cpu ${cpuMs(cpu0)} ms)`);
    await writer.addCounts('list_counts', ['account_id', 'list', 'bucket', 'shard'], lists);
  };
  /** Draws batch `first…` of deals and its share of tickets, and takes the rollups they imply from the tally. */
  const draw = (first: number) => {
    const size = Math.min(batch, plan.deals - first);
    const ticketFrom = Math.floor((first * plan.tickets) / plan.deals);
    const ticketTo = Math.floor(((first + size) * plan.tickets) / plan.deals);
    const deals = dealDrafts(rnd, A, people, w, first, size, plan.deals, tally);
    const tickets = ticketDrafts(rnd, A, people, w, ticketFrom, ticketTo - ticketFrom, plan.tickets, tally);
    return { size, deals, tickets, daily: tally?.takeDaily() ?? [], lists: tally?.takeLists() ?? [] };
  };
  const batch = BATCH[handle.dialect];
  let people: People = { users: [], supportUsers: [], orgs: [], contactsByOrg: [] };
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
    people = await writer.transaction(async (): Promise<People> => {
      const missing = wanted.filter((r) => !idByEmail.has(r[2] as string));
      const newIds = await insert('users', missing, true);
      for (const [i, r] of missing.entries()) idByEmail.set(r[2] as string, newIds[i]);
      const team = wanted.map((r) => ({ id: idByEmail.get(r[2] as string)!, support: r[6] === true }));
      const orgs = orgRows(rnd, A, plan.orgs, w);
      const orgIds = await insert('orgs', orgs, true);
      const contacts = contactRows(rnd, A, orgIds, orgs, plan.contacts);
      const contactIds = await insert('contacts', contacts.rows, true);
      const contactsByOrg: number[][] = orgIds.map(() => []);
      for (const [i, id] of contactIds.entries()) contactsByOrg[contacts.orgOf[i]].push(id);
      for (let i = 0; i < orgs.length; i++) tally?.count('orgs', '');
      for (let i = 0; i < contactIds.length; i++) tally?.count('contacts', '');
      await writeTally(tally?.takeDaily() ?? [], tally?.takeLists() ?? []);
      return { users: team.map((u) => u.id), supportUsers: team.filter((u) => u.support).map((u) => u.id), orgs: orgIds, contactsByOrg };
    });
    log(`seed: ${people.users.length} users, ${people.orgs.length} orgs, ${counts.contacts} contacts`);
    let next = plan.deals > 0 ? draw(0) : undefined;
    for (let first = 0; next; first += batch) {
      const { size, deals, tickets, daily, lists } = next;
      await writer.transaction(async () => {
        const dealIds = await insert(
          'deals',
          deals.map((d) => d.deal),
          true,
        );
        const history: Row[] = [];
        const activities: Row[] = [];
        deals.forEach((d, i) => {
          for (const h of d.history) history.push([A, dealIds[i], h.from, h.to, h.by, h.at]);
          for (const a of d.activities) activities.push([a[0], dealIds[i], ...a.slice(2)]);
        });
        // One statement at a time on the one connection (node-postgres refuses overlapping queries on a client).
        const written = (async () => {
          await insert('deal_status_history', history);
          await insert('deal_activities', activities);
          return insert(
            'tickets',
            tickets.map((t) => t.ticket),
            true,
          );
        })();
        // PostgreSQL works through those statements while this process draws the next batch (the same
        // random sequence as drawing it after the commit); SQLite has already run them.
        next = first + batch < plan.deals ? draw(first + batch) : undefined;
        const ticketIds = await written;
        const logs: Row[] = [];
        tickets.forEach((t, i) => {
          for (const l of t.logs) logs.push([l[0], ticketIds[i], ...l.slice(2)]);
        });
        await insert('support_logs', logs);
        await writeTally(daily, lists);
      });
      const done = first + size;
      log(
        `seed: ${done.toLocaleString('en')} / ${plan.deals.toLocaleString('en')} deals (${Math.round((done * 100) / plan.deals)} %), ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await writer.close();
    // Kept by row triggers, which bulk writes bypass; rebuilt from the account's deals (small: a row per
    // month and reason), also when a batch failed, so the committed batches' lost reasons are counted.
    // Between a batch's commit and this rebuild (and after a killed seed) they lag the deals.
    await rebuildLostReasons(handle.db, A);
  }
  await refreshStatistics(handle);
  log(`seed: planner statistics refreshed, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return counts;
}

const SEEDED_TABLES = [
  'users',
  'orgs',
  'contacts',
  'deals',
  'deal_status_history',
  'deal_activities',
  'tickets',
  'support_logs',
  'analytics_daily',
  'analytics_lost_reasons',
  'list_counts',
];

/** After a bulk load the planners need fresh statistics to pick the right index (SQLite has none until ANALYZE runs). */
function refreshStatistics(handle: DatabaseHandle): Promise<void> {
  return engineOf(handle.db).refreshStatistics(handle.db, SEEDED_TABLES);
}
