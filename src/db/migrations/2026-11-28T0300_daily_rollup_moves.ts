// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { monthStart, yearStart } from './shared-2026-11-28-day-starts.ts';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * The daily rollup's update triggers (`analytics_<table>_au`, migration 2026-11-21T0160_analytics)
 * took every fact of the old row out and put it back from the new row on any update of a column
 * some fact reads: a deal's status change also took its creation count out of its creation day and
 * owner, and its org's month and year, and put the same counts back. Six upserts that changed
 * nothing, each a write of a counter row (on PostgreSQL, a row lock held to the commit), and in a
 * big account a page of the rollup that no other write of the moment touched. Now each fact moves
 * only when a column it reads changed, as the later rollups' triggers do
 * (2026-11-25T0300_analytics_levels). The counts are the same: an update that leaves a fact's
 * columns alone gives its old and new rows the same key and the same condition, so the two
 * upserts cancelled out.
 *
 * The definitions below are 0160's, copied (a migration never imports another's code that may
 * change), each with the columns it reads; the month and year arithmetic comes from the dated
 * module it shares with 2026-11-28T0310 (`shared-2026-11-28-day-starts.ts`, frozen as they are). The deal's funnel count (which moves only with the
 * deal's creation day) is kept as it was. The triggers keep their events (`after update of` the
 * same columns) and, on PostgreSQL, their timing (deferred to the commit,
 * 2026-11-27T1900_rollups_at_commit): only the bodies change.
 */
interface Fact {
  fact: string;
  bucket?: 'month' | 'year';
  /** Epoch-ms column that dates the record. */
  at: string;
  /** The dimension expression over the row variable `r`. */
  dim: string;
  when?: string;
  /** The columns the fact's day, dimension and condition read. */
  reads: string[];
}

const dayOf = (f: Fact, column: string) =>
  f.bucket === 'month' ? monthStart(`${column} / 86400000`) : f.bucket === 'year' ? yearStart(`${column} / 86400000`) : `${column} / 86400000`;
const withYears = (facts: Fact[]): Fact[] =>
  facts.flatMap((f) => (f.bucket === 'month' ? [f, { ...f, fact: `${f.fact}_year`, bucket: 'year' as const }] : [f]));

const KIND = "case r.event_type when 'note' then 1 when 'email' then 2 when 'call' then 3 else 4 end";
const WON = "r.status = 'won' and r.closed_at is not null";
const LOST = "r.status = 'lost' and r.closed_at is not null";
const CLOSED_TICKET = "r.status = 'closed' and r.closed_at is not null";
/** Each table's facts, and the columns whose update fires its trigger (0160's, unchanged). */
const TABLES: { table: string; columns: string[]; facts: Fact[] }[] = [
  {
    table: 'deals',
    columns: ['owner_user_id', 'status', 'closed_at', 'closed_by_user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'deal_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)', reads: ['created_at', 'owner_user_id'] },
      { fact: 'deal_won_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: WON, reads: ['closed_at', 'status', 'owner_user_id'] },
      { fact: 'deal_lost_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: LOST, reads: ['closed_at', 'status', 'owner_user_id'] },
      { fact: 'deal_won_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: WON, reads: ['closed_at', 'status', 'closed_by_user_id'] },
      { fact: 'deal_lost_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: LOST, reads: ['closed_at', 'status', 'closed_by_user_id'] },
      { fact: 'org_deal_created', at: 'created_at', dim: 'r.org_id', bucket: 'month', reads: ['created_at', 'org_id'] },
      { fact: 'org_deal_won', at: 'closed_at', dim: 'r.org_id', bucket: 'month', when: WON, reads: ['closed_at', 'status', 'org_id'] },
    ],
  },
  {
    table: 'deal_activities',
    columns: ['event_type', 'user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'activity_kind', at: 'created_at', dim: KIND, reads: ['created_at', 'event_type'] },
      { fact: 'activity_user', at: 'created_at', dim: 'coalesce(r.user_id, 0)', reads: ['created_at', 'user_id'] },
      { fact: 'org_activity', at: 'created_at', dim: 'r.org_id', bucket: 'month', reads: ['created_at', 'org_id'] },
    ],
  },
  {
    table: 'tickets',
    columns: ['owner_user_id', 'status', 'closed_at', 'created_at', 'org_id'],
    facts: [
      { fact: 'ticket_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)', reads: ['created_at', 'owner_user_id'] },
      { fact: 'ticket_closed', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: CLOSED_TICKET, reads: ['closed_at', 'status', 'owner_user_id'] },
      { fact: 'org_ticket_created', at: 'created_at', dim: 'r.org_id', bucket: 'month', reads: ['created_at', 'org_id'] },
      { fact: 'org_ticket_closed', at: 'closed_at', dim: 'r.org_id', bucket: 'month', when: CLOSED_TICKET, reads: ['closed_at', 'status', 'org_id'] },
    ],
  },
  {
    table: 'support_logs',
    columns: ['author_user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'support_log', at: 'created_at', dim: 'coalesce(r.author_user_id, 0)', reads: ['created_at', 'author_user_id'] },
      { fact: 'org_support_log', at: 'created_at', dim: 'r.org_id', bucket: 'month', reads: ['created_at', 'org_id'] },
    ],
  },
];

const UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';

/** The fact of row `row` counted with `sign`, when its own condition and `cond` hold. */
function count(f: Fact, row: 'new' | 'old', sign: 1 | -1, cond = '1 = 1'): string {
  const r = (text: string) => text.replaceAll('r.', `${row}.`);
  return `insert into analytics_daily (account_id, fact, day, dim, n)
      select ${row}.account_id, '${f.fact}', ${dayOf(f, `${row}.${f.at}`)}, ${r(f.dim)}, ${sign} where ${f.when ? r(f.when) : '1 = 1'} and ${cond} ${UPSERT};`;
}

/** Some column the fact reads differs between `old` and `new`. */
const changed = (f: Fact) => `not (${f.reads.map((c) => `old.${c} is not distinct from new.${c}`).join(' and ')})`;

/** 0160's funnel count of the deal, moved only with its creation day (copied as it was). */
const RANK = "case to_status when 'qualified' then 2 when 'proposal' then 3 when 'negotiation' then 4 when 'won' then 5 else 1 end";
const DEAL_MOVED = 'old.created_at / 86400000 <> new.created_at / 86400000';
const funnelOfDeal = (row: 'new' | 'old', sign: 1 | -1) =>
  `insert into analytics_daily (account_id, fact, day, dim, n) select ${row}.account_id, 'funnel', ${row}.created_at / 86400000, m.r, ${sign}
    from (select (select max(${RANK}) from deal_status_history where deal_id = ${row}.id) as r) m where m.r is not null and (${DEAL_MOVED}) ${UPSERT};`;
const FUNNEL = `${funnelOfDeal('old', -1)}\n${funnelOfDeal('new', 1)}`;

/**
 * The update trigger's body. Moved: each fact only when a column it reads changed (SQLite as a
 * condition of its statements; PostgreSQL as an `if` around them, the deal's funnel count
 * included, so that nothing runs). Otherwise 0160's: every fact out of the old row, then into the
 * new one.
 */
function body(table: string, facts: Fact[], sqlite: boolean, moved: boolean): string {
  const parts = moved
    ? facts.map((f) =>
        sqlite
          ? `${count(f, 'old', -1, changed(f))}\n${count(f, 'new', 1, changed(f))}`
          : `if ${changed(f)} then\n${count(f, 'old', -1)}\n${count(f, 'new', 1)}\nend if;`,
      )
    : [...facts.map((f) => count(f, 'old', -1)), ...facts.map((f) => count(f, 'new', 1))];
  const funnel = table !== 'deals' ? [] : moved && !sqlite ? [`if ${DEAL_MOVED} then\n${FUNNEL}\nend if;`] : [FUNNEL];
  return [...parts, ...funnel].join('\n');
}

async function replace(db: AnyDb, moved: boolean): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const { table, columns, facts: own } of TABLES) {
    const facts = withYears(own);
    const name = `analytics_${table}_au`;
    const text = body(table, facts, sqlite, moved);
    if (sqlite) {
      await sql.raw(`drop trigger ${name}`).execute(db);
      await sql.raw(`create trigger ${name} after update of ${columns.join(', ')} on ${table} begin\n${text}\nend`).execute(db);
    } else {
      // The trigger (its columns, and its deferral to the commit) stays; its function is replaced.
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$ begin\n${text}\nreturn null; end $fn$`).execute(db);
    }
  }
}

export async function up(db: AnyDb): Promise<void> {
  await replace(db, true);
}

export async function down(db: AnyDb): Promise<void> {
  await replace(db, false);
}
