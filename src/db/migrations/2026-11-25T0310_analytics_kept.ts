// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, type Kysely } from 'kysely';
import { createCountTriggers, dropCountTriggers, isSqlite, monthStart } from './shared-2026-11-25-count-triggers.ts';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

const OPEN_DEAL = "status in ('new', 'qualified', 'proposal', 'negotiation')";
const OPEN_TICKET = "status in ('open', 'pending')";

/**
 * What the analytics reports still read from records, kept instead (docs/design.md#analytics):
 *
 * - `analytics_lost_reasons`: lost deals per UTC calendar month of `closed_at` (dated by the
 *   month's first day) and lost reason (code and label as written; `missing` says which of the
 *   two is null: 1 the code, 2 the label, stored as ''). A period reads its whole months here
 *   and the days around them from the deals.
 * - `analytics_daily` facts `org_open_deal` and `org_open_ticket` (day 0, dimension the org):
 *   how many open deals and open or pending tickets each org has now.
 * - An index of open tickets by owner, for the support report's open tickets per employee.
 *
 * Triggers keep them exact in the same transaction as every insert, relevant update and delete.
 */
interface Kept {
  table: string;
  /** The insert for the row variable `r` counted with `sign`, without its `where`. */
  insert: (sign: 1 | -1) => string;
  upsert: string;
  when: string;
  reads: string[];
}

const DAILY_UPSERT = 'on conflict (account_id, fact, day, dim) do update set n = analytics_daily.n + excluded.n';
const REASON_UPSERT = 'on conflict (account_id, day, missing, code, label) do update set n = analytics_lost_reasons.n + excluded.n';
const MISSING = '(case when r.lost_reason_code is null then 1 else 0 end) + (case when r.lost_reason_label is null then 2 else 0 end)';

const KEPT: Kept[] = [
  {
    table: 'deals',
    insert: (sign) => `insert into analytics_lost_reasons (account_id, day, missing, code, label, n)
      select r.account_id, ${monthStart('r.closed_at / 86400000')}, ${MISSING}, coalesce(r.lost_reason_code, ''), coalesce(r.lost_reason_label, ''), ${sign}`,
    upsert: REASON_UPSERT,
    when: "r.status = 'lost' and r.closed_at is not null",
    reads: ['status', 'closed_at', 'lost_reason_code', 'lost_reason_label'],
  },
  {
    table: 'deals',
    insert: (sign) => `insert into analytics_daily (account_id, fact, day, dim, n) select r.account_id, 'org_open_deal', 0, r.org_id, ${sign}`,
    upsert: DAILY_UPSERT,
    when: `r.${OPEN_DEAL}`,
    reads: ['status', 'org_id'],
  },
  {
    table: 'tickets',
    insert: (sign) => `insert into analytics_daily (account_id, fact, day, dim, n) select r.account_id, 'org_open_ticket', 0, r.org_id, ${sign}`,
    upsert: DAILY_UPSERT,
    when: `r.${OPEN_TICKET}`,
    reads: ['status', 'org_id'],
  },
];

function applyRow(k: Kept, row: 'new' | 'old', sign: 1 | -1, cond: string): string {
  const r = (text: string) => text.replaceAll('r.', `${row}.`);
  return `${r(k.insert(sign))} where ${r(k.when)} and ${cond} ${k.upsert};`;
}

const BACKFILL = [
  `insert into analytics_lost_reasons (account_id, day, missing, code, label, n)
    select account_id, day, missing, code, label, count(*) from (
      select account_id, ${monthStart('closed_at / 86400000')} as day, ${MISSING.replaceAll('r.', '')} as missing,
        coalesce(lost_reason_code, '') as code, coalesce(lost_reason_label, '') as label
      from deals where status = 'lost' and closed_at is not null
    ) x group by account_id, day, missing, code, label`,
  `insert into analytics_daily (account_id, fact, day, dim, n)
    select account_id, 'org_open_deal', 0, org_id, count(*) from deals where ${OPEN_DEAL} group by account_id, org_id ${DAILY_UPSERT}`,
  `insert into analytics_daily (account_id, fact, day, dim, n)
    select account_id, 'org_open_ticket', 0, org_id, count(*) from tickets where ${OPEN_TICKET} group by account_id, org_id ${DAILY_UPSERT}`,
];

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  await sql.raw(`create index analytics_tickets_open_owner_idx on tickets (account_id, owner_user_id) where ${OPEN_TICKET}`).execute(db);
  await sql
    .raw(`create table analytics_lost_reasons (
      account_id bigint not null, day bigint not null, missing integer not null, code text not null, label text not null, n bigint not null,
      primary key (account_id, day, missing, code, label))${sqlite ? ' without rowid' : ''}`)
    .execute(db);
  for (const statement of BACKFILL) await sql.raw(statement).execute(db);
  // The planner's statistics of the table count the new rows (else it plans joins over them as empty).
  if (!sqlite) await sql.raw('analyze analytics_daily').execute(db);
  for (const table of ['deals', 'tickets']) {
    const kept = KEPT.filter((k) => k.table === table);
    await createCountTriggers(db, `analytics_kept_${table}`, table, kept, applyRow);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['deals', 'tickets']) await dropCountTriggers(db, `analytics_kept_${table}`, table);
  await sql.raw(`delete from analytics_daily where fact in ('org_open_deal', 'org_open_ticket')`).execute(db);
  await sql.raw('drop table analytics_lost_reasons').execute(db);
  await sql.raw('drop index analytics_tickets_open_owner_idx').execute(db);
}
