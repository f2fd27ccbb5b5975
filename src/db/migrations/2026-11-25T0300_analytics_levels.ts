// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, type Kysely } from 'kysely';
import { createCountTriggers, dropCountTriggers, isSqlite, monthStart } from './shared-2026-11-25-count-triggers.ts';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * Coarser levels of the daily rollup `analytics_daily` (migration 2026-11-21T0160_analytics), so
 * a long period reads a few rows per user instead of one per user and day:
 *
 * - `<fact>_month`: the per-user (or per-kind) facts by UTC calendar month, dated by the month's
 *   first day, with the same dimension. A period reads its whole months here and only the days
 *   around them from the daily rows (a year is 12 rows per user instead of 365).
 * - `<fact>_total`: the facts the weekly trends need, by day for the whole account (dimension
 *   0), so a year of trends is 365 rows per fact whatever the team's size.
 *
 * Triggers keep both exact in the same transaction as every insert, relevant update and delete
 * of the base tables, as 0160 does for the daily rows; an update moves a record's counts only
 * when a column the fact depends on changed. The backfill derives them from the daily rows.
 */
interface Fact {
  fact: string;
  /** Epoch-ms column that dates the record. */
  at: string;
  /** The per-user dimension expression over the row variable `r`. */
  dim: string;
  /** Extra condition over `r`, if any. */
  when?: string;
  /** Columns the fact reads: an update that changes none of them leaves its counts alone. */
  reads: string[];
  /** Whether the trends read it for the whole account (a `_total` level). */
  total: boolean;
}

const KIND = "case r.event_type when 'note' then 1 when 'email' then 2 when 'call' then 3 else 4 end";
const WON = "r.status = 'won' and r.closed_at is not null";
const LOST = "r.status = 'lost' and r.closed_at is not null";
const TABLES: { table: string; facts: Fact[] }[] = [
  {
    table: 'deals',
    facts: [
      { fact: 'deal_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)', reads: ['created_at', 'owner_user_id'], total: true },
      { fact: 'deal_won_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: WON, reads: ['closed_at', 'status', 'owner_user_id'], total: true },
      {
        fact: 'deal_lost_owner',
        at: 'closed_at',
        dim: 'coalesce(r.owner_user_id, 0)',
        when: LOST,
        reads: ['closed_at', 'status', 'owner_user_id'],
        total: true,
      },
      {
        fact: 'deal_won_closer',
        at: 'closed_at',
        dim: 'coalesce(r.closed_by_user_id, 0)',
        when: WON,
        reads: ['closed_at', 'status', 'closed_by_user_id'],
        total: false,
      },
      {
        fact: 'deal_lost_closer',
        at: 'closed_at',
        dim: 'coalesce(r.closed_by_user_id, 0)',
        when: LOST,
        reads: ['closed_at', 'status', 'closed_by_user_id'],
        total: false,
      },
    ],
  },
  {
    table: 'deal_activities',
    facts: [
      { fact: 'activity_kind', at: 'created_at', dim: KIND, reads: ['created_at', 'event_type'], total: false },
      { fact: 'activity_user', at: 'created_at', dim: 'coalesce(r.user_id, 0)', reads: ['created_at', 'user_id'], total: false },
    ],
  },
  {
    table: 'tickets',
    facts: [
      { fact: 'ticket_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)', reads: ['created_at', 'owner_user_id'], total: true },
      {
        fact: 'ticket_closed',
        at: 'closed_at',
        dim: 'coalesce(r.owner_user_id, 0)',
        when: "r.status = 'closed' and r.closed_at is not null",
        reads: ['closed_at', 'status', 'owner_user_id'],
        total: true,
      },
    ],
  },
  {
    table: 'support_logs',
    facts: [{ fact: 'support_log', at: 'created_at', dim: 'coalesce(r.author_user_id, 0)', reads: ['created_at', 'author_user_id'], total: true }],
  },
];

interface Level {
  suffix: '_month' | '_total';
  /** The level's day from a record's day number. */
  day: (d: string) => string;
  /** The level's dimension from the fact's dimension. */
  dim: (dim: string) => string;
  facts: (f: Fact) => boolean;
}

const LEVELS: Level[] = [
  { suffix: '_month', day: monthStart, dim: (dim) => dim, facts: () => true },
  { suffix: '_total', day: (d) => d, dim: () => '0', facts: (f) => f.total },
];

const UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';

/** The row `row` counted with `sign` at every level of `f`, when `cond` holds. */
function applyRow(f: Fact, row: 'new' | 'old', sign: 1 | -1, cond: string): string {
  const r = (text: string) => text.replaceAll('r.', `${row}.`);
  return LEVELS.filter((l) => l.facts(f))
    .map(
      (l) => `insert into analytics_daily (account_id, fact, day, dim, n)
      select ${row}.account_id, '${f.fact}${l.suffix}', ${l.day(`${row}.${f.at} / 86400000`)}, ${l.dim(r(f.dim))}, ${sign}
      where ${f.when ? r(f.when) : '1 = 1'} and ${cond} ${UPSERT};`,
    )
    .join('\n');
}

/** The levels rebuilt from the daily rows (which 0160 and 0170 keep). */
function backfill(l: Level, facts: Fact[]): string {
  const names = facts.filter(l.facts).map((f) => `'${f.fact}'`);
  return `insert into analytics_daily (account_id, fact, day, dim, n)
    select account_id, fact, day, dim, sum(n) from (
      select account_id, fact || '${l.suffix}' as fact, ${l.day('day')} as day, ${l.dim('dim')} as dim, n
      from analytics_daily where fact in (${names.join(', ')})
    ) x group by account_id, fact, day, dim having sum(n) <> 0 ${UPSERT}`;
}

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  const all = TABLES.flatMap((t) => t.facts);
  for (const l of LEVELS) await sql.raw(backfill(l, all)).execute(db);
  // The planner's statistics of the table count the new rows (else it plans joins over them as empty).
  if (!sqlite) await sql.raw('analyze analytics_daily').execute(db);
  for (const { table, facts } of TABLES) await createCountTriggers(db, `analytics_levels_${table}`, table, facts, applyRow);
}

export async function down(db: AnyDb): Promise<void> {
  for (const { table } of TABLES) await dropCountTriggers(db, `analytics_levels_${table}`, table);
  const facts = TABLES.flatMap((t) => t.facts);
  const names = LEVELS.flatMap((l) => facts.filter(l.facts).map((f) => `'${f.fact}${l.suffix}'`));
  await sql.raw(`delete from analytics_daily where fact in (${names.join(', ')})`).execute(db);
}
