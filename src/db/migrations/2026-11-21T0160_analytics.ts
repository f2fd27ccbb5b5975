// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

const OPEN_DEAL = "status in ('new', 'qualified', 'proposal', 'negotiation')";
const OPEN_TICKET = "status in ('open', 'pending')";

/**
 * Covering indexes for the analytics aggregates that read records directly: "now" metrics
 * (open deals and tickets, as partial indexes holding only open records), per-org rankings,
 * the funnel, lost reasons, and periods that do not fall on whole UTC days. Predicates are
 * written exactly as the queries write them, so both planners match them.
 */
const INDEXES: [name: string, table: string, columns: string, where?: string][] = [
  ['analytics_deals_created_idx', 'deals', 'account_id, created_at, owner_user_id, org_id'],
  ['analytics_deals_closed_idx', 'deals', 'account_id, closed_at, status, owner_user_id, closed_by_user_id, org_id', 'closed_at is not null'],
  ['analytics_deals_open_idx', 'deals', 'account_id, status, currency, value_cents, owner_user_id', OPEN_DEAL],
  ['analytics_deals_open_org_idx', 'deals', 'account_id, org_id', OPEN_DEAL],
  ['analytics_deals_open_followup_idx', 'deals', 'account_id, next_followup_at, owner_user_id', OPEN_DEAL],
  ['analytics_deals_open_activity_idx', 'deals', 'account_id, last_activity_at, owner_user_id', OPEN_DEAL],
  ['analytics_history_deal_idx', 'deal_status_history', 'account_id, deal_id, to_status'],
  ['analytics_activities_idx', 'deal_activities', 'account_id, created_at, event_type, user_id, org_id'],
  ['analytics_tickets_created_idx', 'tickets', 'account_id, created_at, owner_user_id, org_id'],
  ['analytics_tickets_closed_idx', 'tickets', 'account_id, closed_at, status, owner_user_id, org_id', 'closed_at is not null'],
  ['analytics_tickets_open_idx', 'tickets', 'account_id, org_id, owner_user_id, created_at', OPEN_TICKET],
  ['analytics_support_logs_idx', 'support_logs', 'account_id, created_at, author_user_id, org_id'],
];

/**
 * Daily rollups: `analytics_daily` holds, per account, fact, UTC day (days since 1970-01-01)
 * and dimension (a user id, an activity kind code, 0 for none), how many records the fact
 * counts. Triggers keep it exact in the same transaction as every insert, relevant update and
 * delete of the base tables, whoever writes them, so no write path has to know about it. A
 * year of one fact is then at most 366 × users rows instead of every record.
 */
interface Fact {
  fact: string;
  /** Epoch-ms column that dates the record. */
  at: string;
  /** The dimension expression over the row variable `r`. */
  dim: string;
  /** Extra condition over `r`, if any. */
  when?: string;
}

const KIND = "case r.event_type when 'note' then 1 when 'email' then 2 when 'call' then 3 else 4 end";
const TABLES: { table: string; columns: string[]; facts: Fact[] }[] = [
  {
    table: 'deals',
    columns: ['owner_user_id', 'status', 'closed_at', 'closed_by_user_id', 'created_at'],
    facts: [
      { fact: 'deal_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)' },
      { fact: 'deal_won_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'won' and r.closed_at is not null" },
      { fact: 'deal_lost_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'lost' and r.closed_at is not null" },
      { fact: 'deal_won_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: "r.status = 'won' and r.closed_at is not null" },
      { fact: 'deal_lost_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: "r.status = 'lost' and r.closed_at is not null" },
    ],
  },
  {
    table: 'deal_activities',
    columns: ['event_type', 'user_id', 'created_at'],
    facts: [
      { fact: 'activity_kind', at: 'created_at', dim: KIND },
      { fact: 'activity_user', at: 'created_at', dim: 'coalesce(r.user_id, 0)' },
    ],
  },
  {
    table: 'tickets',
    columns: ['owner_user_id', 'status', 'closed_at', 'created_at'],
    facts: [
      { fact: 'ticket_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)' },
      { fact: 'ticket_closed', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'closed' and r.closed_at is not null" },
    ],
  },
  {
    table: 'support_logs',
    columns: ['author_user_id', 'created_at'],
    facts: [{ fact: 'support_log', at: 'created_at', dim: 'coalesce(r.author_user_id, 0)' }],
  },
];

const UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';

/** One upsert per fact for the row `row` (new or old) counted with `sign`. `where` is always present: SQLite needs it before ON CONFLICT. */
function applyRow(facts: Fact[], row: 'new' | 'old', sign: 1 | -1): string {
  const r = (text: string) => text.replaceAll('r.', `${row}.`);
  return facts
    .map((f) => `insert into analytics_daily (account_id, fact, day, dim, n)
      select ${row}.account_id, '${f.fact}', ${row}.${f.at} / 86400000, ${r(f.dim)}, ${sign} where ${f.when ? r(f.when) : '1 = 1'} ${UPSERT};`)
    .join('\n');
}

/** The same counts, rebuilt from the records (for data that predates the triggers). */
function backfill(table: string, f: Fact): string {
  const r = (text: string) => text.replaceAll('r.', '');
  return `insert into analytics_daily (account_id, fact, day, dim, n)
    select account_id, '${f.fact}', ${f.at} / 86400000, ${r(f.dim)}, count(*) from ${table}
    where ${f.when ? r(f.when) : '1 = 1'} group by account_id, ${f.at} / 86400000, ${r(f.dim)} ${UPSERT}`;
}

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  for (const [name, table, columns, where] of INDEXES) {
    await sql.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`).execute(db);
  }
  const sqlite = isSqlite(db);
  await sql.raw(`create table analytics_daily (
      account_id bigint not null, fact text not null, day bigint not null, dim bigint not null, n bigint not null,
      primary key (account_id, fact, day, dim))${sqlite ? ' without rowid' : ''}`).execute(db);
  for (const { table, columns, facts } of TABLES) {
    for (const f of facts) await sql.raw(backfill(table, f)).execute(db);
    const name = `analytics_${table}`;
    const bodies = { ai: applyRow(facts, 'new', 1), au: `${applyRow(facts, 'old', -1)}\n${applyRow(facts, 'new', 1)}`, ad: applyRow(facts, 'old', -1) };
    const events = { ai: 'insert', au: `update of ${columns.join(', ')}`, ad: 'delete' };
    for (const op of ['ai', 'au', 'ad'] as const) {
      if (sqlite) {
        await sql.raw(`create trigger ${name}_${op} after ${events[op]} on ${table} begin\n${bodies[op]}\nend`).execute(db);
      } else {
        await sql.raw(`create function ${name}_${op}() returns trigger language plpgsql as $fn$ begin\n${bodies[op]}\nreturn null; end $fn$`).execute(db);
        await sql.raw(`create trigger ${name}_${op} after ${events[op]} on ${table} for each row execute function ${name}_${op}()`).execute(db);
      }
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  for (const { table } of TABLES) {
    for (const op of ['ai', 'au', 'ad']) {
      await sql.raw(`drop trigger analytics_${table}_${op}${sqlite ? '' : ` on ${table}`}`).execute(db);
      if (!sqlite) await sql.raw(`drop function analytics_${table}_${op}()`).execute(db);
    }
  }
  await sql.raw('drop table analytics_daily').execute(db);
  for (const [name] of INDEXES) await sql.raw(`drop index ${name}`).execute(db);
}
