// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
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
  ['analytics_deals_lost_idx', 'deals', 'account_id, closed_at, lost_reason_code, lost_reason_label, owner_user_id', "status = 'lost'"],
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
  /** Dated by the first day of the record's UTC calendar month or year (per-org facts, where days would not compress). */
  bucket?: 'month' | 'year';
  /** Epoch-ms column that dates the record. */
  at: string;
  /** The dimension expression over the row variable `r`. */
  dim: string;
  /** Extra condition over `r`, if any. */
  when?: string;
}

/**
 * First day (days since 1970-01-01) of the UTC calendar month holding day `d`: the integer
 * civil-from-days algorithm (H. Hinnant), the same arithmetic on both engines.
 */
const monthStart = (d: string) =>
  `(select ${d} - (doy - (153 * ((5 * doy + 2) / 153) + 2) / 5) from (select doe - (365 * yoe + yoe / 4 - yoe / 100) as doy from ` +
  `(select doe, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 as yoe from ` +
  `(select (${d} + 719468) - ((${d} + 719468) / 146097) * 146097 as doe) as a) as b) as c)`;
/** January 1st (days since 1970-01-01) of the UTC year holding day `d`: civil-from-days, then days-from-civil of (year, 1, 1). */
const yearStart = (d: string) =>
  `(select era2 * 146097 + yoe2 * 365 + yoe2 / 4 - yoe2 / 100 + 306 - 719468 from (select yp - (yp / 400) * 400 as yoe2, yp / 400 as era2 from ` +
  `(select yoe + era * 400 + (case when (5 * doy + 2) / 153 >= 10 then 1 else 0 end) - 1 as yp from ` +
  `(select doe - (365 * yoe + yoe / 4 - yoe / 100) as doy, yoe, era from ` +
  `(select doe, era, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 as yoe from ` +
  `(select z - (z / 146097) * 146097 as doe, z / 146097 as era from (select ${d} + 719468 as z) as s0) as s1) as s2) as s3) as s4) as s5)`;
const dayOf = (f: Fact, column: string) =>
  f.bucket === 'month' ? monthStart(`${column} / 86400000`) : f.bucket === 'year' ? yearStart(`${column} / 86400000`) : `${column} / 86400000`;
/** Each per-org monthly fact also by year, so a year is one row per org. */
const withYears = (facts: Fact[]): Fact[] =>
  facts.flatMap((f) => (f.bucket === 'month' ? [f, { ...f, fact: `${f.fact}_year`, bucket: 'year' as const }] : [f]));

const KIND = "case r.event_type when 'note' then 1 when 'email' then 2 when 'call' then 3 else 4 end";
const TABLES: { table: string; columns: string[]; facts: Fact[] }[] = [
  {
    table: 'deals',
    columns: ['owner_user_id', 'status', 'closed_at', 'closed_by_user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'deal_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)' },
      { fact: 'deal_won_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'won' and r.closed_at is not null" },
      { fact: 'deal_lost_owner', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'lost' and r.closed_at is not null" },
      { fact: 'deal_won_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: "r.status = 'won' and r.closed_at is not null" },
      { fact: 'deal_lost_closer', at: 'closed_at', dim: 'coalesce(r.closed_by_user_id, 0)', when: "r.status = 'lost' and r.closed_at is not null" },
      { fact: 'org_deal_created', at: 'created_at', dim: 'r.org_id', bucket: 'month' },
      { fact: 'org_deal_won', at: 'closed_at', dim: 'r.org_id', bucket: 'month', when: "r.status = 'won' and r.closed_at is not null" },
    ],
  },
  {
    table: 'deal_activities',
    columns: ['event_type', 'user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'activity_kind', at: 'created_at', dim: KIND },
      { fact: 'activity_user', at: 'created_at', dim: 'coalesce(r.user_id, 0)' },
      { fact: 'org_activity', at: 'created_at', dim: 'r.org_id', bucket: 'month' },
    ],
  },
  {
    table: 'tickets',
    columns: ['owner_user_id', 'status', 'closed_at', 'created_at', 'org_id'],
    facts: [
      { fact: 'ticket_created', at: 'created_at', dim: 'coalesce(r.owner_user_id, 0)' },
      { fact: 'ticket_closed', at: 'closed_at', dim: 'coalesce(r.owner_user_id, 0)', when: "r.status = 'closed' and r.closed_at is not null" },
      { fact: 'org_ticket_created', at: 'created_at', dim: 'r.org_id', bucket: 'month' },
      { fact: 'org_ticket_closed', at: 'closed_at', dim: 'r.org_id', bucket: 'month', when: "r.status = 'closed' and r.closed_at is not null" },
    ],
  },
  {
    table: 'support_logs',
    columns: ['author_user_id', 'created_at', 'org_id'],
    facts: [
      { fact: 'support_log', at: 'created_at', dim: 'coalesce(r.author_user_id, 0)' },
      { fact: 'org_support_log', at: 'created_at', dim: 'r.org_id', bucket: 'month' },
    ],
  },
  { table: 'deal_status_history', columns: ['deal_id', 'to_status'], facts: [] },
];

const UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';

/** One upsert per fact for the row `row` (new or old) counted with `sign`. `where` is always present: SQLite needs it before ON CONFLICT. */
function applyRow(facts: Fact[], row: 'new' | 'old', sign: 1 | -1): string {
  const r = (text: string) => text.replaceAll('r.', `${row}.`);
  return facts
    .map(
      (f) => `insert into analytics_daily (account_id, fact, day, dim, n)
      select ${row}.account_id, '${f.fact}', ${dayOf(f, `${row}.${f.at}`)}, ${r(f.dim)}, ${sign} where ${f.when ? r(f.when) : '1 = 1'} ${UPSERT};`,
    )
    .join('\n');
}

/** The same counts, rebuilt from the records (for data that predates the triggers). */
function backfill(table: string, f: Fact): string {
  const r = (text: string) => text.replaceAll('r.', '');
  return `insert into analytics_daily (account_id, fact, day, dim, n)
    select account_id, fact, day, dim, count(*) from (
      select account_id, '${f.fact}' as fact, ${dayOf(f, f.at)} as day, ${r(f.dim)} as dim from ${table} where ${f.when ? r(f.when) : '1 = 1'}
    ) x group by account_id, fact, day, dim ${UPSERT}`;
}

/**
 * The funnel rollup: fact `funnel`, dated by the deal's creation day, dimension
 * the furthest stage rank its status history reached (new 1, qualified 2,
 * proposal 3, negotiation 4, won 5; lost ranks as new). Each deal with history counts once, at
 * its furthest rank; a history row that raises it moves the count, and so do changes of the
 * deal's creation time and deletions (the deal's share is taken out before the
 * deal and its history go).
 */
const RANK = (col: string) => `case ${col} when 'qualified' then 2 when 'proposal' then 3 when 'negotiation' then 4 when 'won' then 5 else 1 end`;
const maxRank = (dealId: string, exceptId?: string) =>
  `(select max(${RANK('to_status')}) from deal_status_history where deal_id = ${dealId}${exceptId ? ` and id <> ${exceptId}` : ''})`;
// The owner is not a dimension: a year holds 5 rows a day, and one owner's funnel is small enough to read from the records.
const funnelDim = (_owner: string, rank: string) => rank;

function funnelUpsert(select: string): string {
  return `insert into analytics_daily (account_id, fact, day, dim, n) ${select} ${UPSERT};`;
}

/** History row `new` added: when it raises the deal's furthest rank, move the deal's count there. */
function funnelAdd(row: 'new'): string {
  const from = `from deals d, (select ${maxRank(`${row}.deal_id`, `${row}.id`)} as r) m where d.id = ${row}.deal_id`;
  const rank = RANK(`${row}.to_status`);
  return [
    funnelUpsert(
      `select d.account_id, 'funnel', d.created_at / 86400000, ${funnelDim('d.owner_user_id', 'm.r')}, -1 ${from} and m.r is not null and ${rank} > m.r`,
    ),
    funnelUpsert(`select d.account_id, 'funnel', d.created_at / 86400000, ${funnelDim('d.owner_user_id', rank)}, 1 ${from} and (m.r is null or ${rank} > m.r)`),
  ].join('\n');
}

/** History row `old` removed: when it held the deal's furthest rank alone, move the count down to the next (or out). */
function funnelRemove(row: 'old'): string {
  const from = `from deals d, (select ${maxRank(`${row}.deal_id`, `${row}.id`)} as r) m where d.id = ${row}.deal_id`;
  const rank = RANK(`${row}.to_status`);
  return [
    funnelUpsert(`select d.account_id, 'funnel', d.created_at / 86400000, ${funnelDim('d.owner_user_id', rank)}, -1 ${from} and ${rank} > coalesce(m.r, 0)`),
    funnelUpsert(
      `select d.account_id, 'funnel', d.created_at / 86400000, ${funnelDim('d.owner_user_id', 'm.r')}, 1 ${from} and m.r is not null and ${rank} > m.r`,
    ),
  ].join('\n');
}

/** A deal's count at its furthest rank, with `sign`, for the deal row `row` (new or old). */
function funnelOfDeal(row: 'new' | 'old', sign: 1 | -1, when = '1 = 1'): string {
  return funnelUpsert(`select ${row}.account_id, 'funnel', ${row}.created_at / 86400000, ${funnelDim(`${row}.owner_user_id`, 'm.r')}, ${sign}
    from (select ${maxRank(`${row}.id`)} as r) m where m.r is not null and ${when}`);
}

const DEAL_MOVED = 'old.created_at / 86400000 <> new.created_at / 86400000';

const FUNNEL_BACKFILL = `insert into analytics_daily (account_id, fact, day, dim, n)
  select d.account_id, 'funnel', d.created_at / 86400000, ${funnelDim('d.owner_user_id', 'm.r')}, count(*)
  from deals d join (select deal_id, max(${RANK('to_status')}) as r from deal_status_history group by deal_id) m on m.deal_id = d.id
  group by d.account_id, d.created_at / 86400000, ${funnelDim('d.owner_user_id', 'm.r')} ${UPSERT}`;

/** Trigger bodies by table and event, beyond the plain counts. */
const EXTRA: Record<string, Partial<Record<'ai' | 'au' | 'ad' | 'bd', string>>> = {
  deals: { au: `${funnelOfDeal('old', -1, `(${DEAL_MOVED})`)}\n${funnelOfDeal('new', 1, `(${DEAL_MOVED})`)}`, bd: funnelOfDeal('old', -1) },
  deal_status_history: { ai: funnelAdd('new'), au: `${funnelRemove('old')}\n${funnelAdd('new')}`, ad: funnelRemove('old') },
};

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function up(db: AnyDb): Promise<void> {
  for (const [name, table, columns, where] of INDEXES) {
    await sql.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`).execute(db);
  }
  const sqlite = isSqlite(db);
  await sql
    .raw(`create table analytics_daily (
      account_id bigint not null, fact text not null, day bigint not null, dim bigint not null, n bigint not null,
      primary key (account_id, fact, day, dim))${sqlite ? ' without rowid' : ''}`)
    .execute(db);
  for (const { table, columns, facts: own } of TABLES) {
    const facts = withYears(own);
    for (const f of facts) await sql.raw(backfill(table, f)).execute(db);
    const name = `analytics_${table}`;
    const extra = EXTRA[table] ?? {};
    const bodies = {
      ai: `${applyRow(facts, 'new', 1)}\n${extra.ai ?? ''}`,
      au: `${applyRow(facts, 'old', -1)}\n${applyRow(facts, 'new', 1)}\n${extra.au ?? ''}`,
      ad: `${applyRow(facts, 'old', -1)}\n${extra.ad ?? ''}`,
      bd: extra.bd ?? '',
    };
    const events = { ai: 'after insert', au: `after update of ${columns.join(', ')}`, ad: 'after delete', bd: 'before delete' };
    for (const op of OPS) {
      if (!bodies[op].trim()) continue;
      if (sqlite) {
        await sql.raw(`create trigger ${name}_${op} ${events[op]} on ${table} begin\n${bodies[op]}\nend`).execute(db);
      } else {
        // A BEFORE trigger returns the row to let the delete proceed; AFTER triggers' result is ignored.
        await sql
          .raw(
            `create function ${name}_${op}() returns trigger language plpgsql as $fn$ begin\n${bodies[op]}\nreturn ${op === 'bd' ? 'old' : 'null'}; end $fn$`,
          )
          .execute(db);
        await sql.raw(`create trigger ${name}_${op} ${events[op]} on ${table} for each row execute function ${name}_${op}()`).execute(db);
      }
    }
  }
  await sql.raw(FUNNEL_BACKFILL).execute(db);
}

const OPS = ['ai', 'au', 'ad', 'bd'] as const;

export async function down(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  for (const { table } of TABLES) {
    for (const op of OPS) {
      await sql.raw(`drop trigger if exists analytics_${table}_${op}${sqlite ? '' : ` on ${table}`}`).execute(db);
      if (!sqlite) await sql.raw(`drop function if exists analytics_${table}_${op}()`).execute(db);
    }
  }
  await sql.raw('drop table analytics_daily').execute(db);
  for (const [name] of INDEXES) await sql.raw(`drop index ${name}`).execute(db);
}
