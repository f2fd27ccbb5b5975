// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * The funnel read literally from the status history (docs/design.md#analytics: "of the deals created in
 * the period, how many reached each open stage and won"; "the funnel is computed from that
 * history"): a deal counts at stage X when its history (creation row included) holds a row with
 * to_status X, once per deal and stage. Lost is no stage.
 *
 * Fact `funnel_stage` of `analytics_daily`: day = the deal's creation day, dim = stage rank
 * (new 1 … won 5), n = deals. A stage is counted when the first history row of that deal and
 * to_status arrives and taken out when the last one goes, found through the index
 * analytics_history_deal_idx (account_id, deal_id, to_status). Deleting a deal takes its stages
 * out before the deal goes; the cascaded history deletes then find no deal and change nothing.
 *
 * This replaces the furthest-rank fact `funnel` of 2026-11-21T0160_analytics: its history and
 * deal-delete triggers are dropped here and its rows deleted. Its deals update trigger
 * (analytics_deals_au) still rewrites `funnel` rows when a deal's creation day changes; nothing
 * reads them any more.
 */
const STAGE = (col: string) => `case ${col} when 'new' then 1 when 'qualified' then 2 when 'proposal' then 3 when 'negotiation' then 4 when 'won' then 5 end`;
const UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';
const DAY = (col: string) => `${col} / 86400000`;

/** No other history row of the same deal with the same to_status than `row` itself. */
const onlyRow = (row: 'new' | 'old') =>
  `not exists (select 1 from deal_status_history e where e.account_id = ${row}.account_id and e.deal_id = ${row}.deal_id and e.to_status = ${row}.to_status and e.id <> ${row}.id)`;

/** History row `row` counted with `sign` when it is the deal's only row at its stage. */
function historyRow(row: 'new' | 'old', sign: 1 | -1): string {
  return `insert into analytics_daily (account_id, fact, day, dim, n)
    select d.account_id, 'funnel_stage', ${DAY('d.created_at')}, ${STAGE(`${row}.to_status`)}, ${sign} from deals d
    where d.id = ${row}.deal_id and d.account_id = ${row}.account_id and ${STAGE(`${row}.to_status`)} is not null and ${onlyRow(row)} ${UPSERT};`;
}

/** Every stage the deal row `row` reached, counted with `sign` on its creation day. */
function dealStages(row: 'new' | 'old', sign: 1 | -1, when = '1 = 1'): string {
  return `insert into analytics_daily (account_id, fact, day, dim, n)
    select ${row}.account_id, 'funnel_stage', ${DAY(`${row}.created_at`)}, s.stage, ${sign}
    from (select distinct ${STAGE('to_status')} as stage from deal_status_history where account_id = ${row}.account_id and deal_id = ${row}.id) s
    where s.stage is not null and ${when} ${UPSERT};`;
}

const MOVED = `${DAY('old.created_at')} <> ${DAY('new.created_at')}`;

const TRIGGERS: { name: string; table: string; event: string; before?: boolean; body: string }[] = [
  { name: 'analytics_funnel_history_ai', table: 'deal_status_history', event: 'after insert', body: historyRow('new', 1) },
  {
    name: 'analytics_funnel_history_au',
    table: 'deal_status_history',
    event: 'after update of account_id, deal_id, to_status',
    body: `${historyRow('old', -1)}\n${historyRow('new', 1)}`,
  },
  { name: 'analytics_funnel_history_ad', table: 'deal_status_history', event: 'after delete', body: historyRow('old', -1) },
  {
    name: 'analytics_funnel_deals_au',
    table: 'deals',
    event: 'after update of created_at',
    body: `${dealStages('old', -1, MOVED)}\n${dealStages('new', 1, MOVED)}`,
  },
  { name: 'analytics_funnel_deals_bd', table: 'deals', event: 'before delete', before: true, body: dealStages('old', -1) },
];

/** The 0160 triggers that kept the furthest-rank fact. */
const REPLACED: [name: string, table: string][] = [
  ['analytics_deal_status_history_ai', 'deal_status_history'],
  ['analytics_deal_status_history_au', 'deal_status_history'],
  ['analytics_deal_status_history_ad', 'deal_status_history'],
  ['analytics_deals_bd', 'deals'],
];

const BACKFILL = `insert into analytics_daily (account_id, fact, day, dim, n)
  select d.account_id, 'funnel_stage', ${DAY('d.created_at')}, s.stage, count(*)
  from deals d join (select distinct account_id, deal_id, ${STAGE('to_status')} as stage from deal_status_history) s
    on s.account_id = d.account_id and s.deal_id = d.id
  where s.stage is not null
  group by d.account_id, ${DAY('d.created_at')}, s.stage ${UPSERT}`;

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

async function dropTrigger(db: AnyDb, sqlite: boolean, name: string, table: string) {
  await sql.raw(`drop trigger if exists ${name}${sqlite ? '' : ` on ${table}`}`).execute(db);
  if (!sqlite) await sql.raw(`drop function if exists ${name}()`).execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  for (const [name, table] of REPLACED) await dropTrigger(db, sqlite, name, table);
  await sql.raw(`delete from analytics_daily where fact in ('funnel', 'funnel_stage')`).execute(db);
  await sql.raw(BACKFILL).execute(db);
  for (const t of TRIGGERS) {
    if (sqlite) {
      await sql.raw(`create trigger ${t.name} ${t.event} on ${t.table} begin\n${t.body}\nend`).execute(db);
    } else {
      // A BEFORE trigger returns the row to let the delete proceed; AFTER triggers' result is ignored.
      await sql
        .raw(`create function ${t.name}() returns trigger language plpgsql as $fn$ begin\n${t.body}\nreturn ${t.before ? 'old' : 'null'}; end $fn$`)
        .execute(db);
      await sql.raw(`create trigger ${t.name} ${t.event} on ${t.table} for each row execute function ${t.name}()`).execute(db);
    }
  }
}

/** Drops the stage triggers and facts; the furthest-rank funnel of 0160 is not restored (its code lives there). */
export async function down(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  for (const t of TRIGGERS) await dropTrigger(db, sqlite, t.name, t.table);
  await sql.raw(`delete from analytics_daily where fact = 'funnel_stage'`).execute(db);
}
