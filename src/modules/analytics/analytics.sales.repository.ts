import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { andIf, CLOSED_DEAL, OPEN_DEAL, rows, within } from './analytics.sql.ts';

export interface SalesFilter {
  ownerUserId?: number;
  by: 'owner' | 'closer';
}

const owner = (f: SalesFilter) => andIf(f.ownerUserId !== undefined, () => sql`owner_user_id = ${f.ownerUserId}`);

/** Deals created in the period, per owner. */
export function createdPerOwner(db: Executor, accountId: number, p: Period, f: SalesFilter) {
  return rows<{ user_id: number | null; n: number }>(
    db,
    sql`
    select owner_user_id as user_id, count(*) as n from deals
    where account_id = ${accountId} and ${within('created_at', p)} ${owner(f)}
    group by owner_user_id`,
  );
}

/** Deals won and lost with closed_at in the period, per owner or per closer. */
export function closedPerRep(db: Executor, accountId: number, p: Period, f: SalesFilter) {
  const key = sql.ref(f.by === 'closer' ? 'closed_by_user_id' : 'owner_user_id');
  return rows<{ user_id: number | null; won: number; lost: number }>(
    db,
    sql`
    select ${key} as user_id,
      sum(case when status = 'won' then 1 else 0 end) as won,
      sum(case when status = 'lost' then 1 else 0 end) as lost
    from deals
    where account_id = ${accountId} and ${within('closed_at', p)} and ${CLOSED_DEAL} ${owner(f)}
    group by ${key}`,
  );
}

export function lostReasons(db: Executor, accountId: number, p: Period, f: SalesFilter) {
  return rows<{ code: string | null; label: string | null; n: number }>(
    db,
    sql`
    select lost_reason_code as code, max(lost_reason_label) as label, count(*) as n from deals
    where account_id = ${accountId} and ${within('closed_at', p)} and status = 'lost' ${owner(f)}
    group by lost_reason_code`,
  );
}

/**
 * Per funnel stage, the deals created in the period whose status history (creation row
 * included) holds a row with that to_status; a deal counts once per stage. Lost is no stage.
 */
export function funnelReach(db: Executor, accountId: number, p: Period, f: SalesFilter) {
  return rows<{ stage: string; n: number }>(
    db,
    sql`
    select h.to_status as stage, count(distinct h.deal_id) as n
    from deals d join deal_status_history h on h.account_id = d.account_id and h.deal_id = d.id
    where d.account_id = ${accountId} and ${within('d.created_at', p)}
      and h.to_status in ('new', 'qualified', 'proposal', 'negotiation', 'won')
      ${andIf(f.ownerUserId !== undefined, () => sql`d.owner_user_id = ${f.ownerUserId}`)}
    group by h.to_status`,
  );
}

/** Open deals now: count and value per status and currency. */
export function openPipeline(db: Executor, accountId: number, f: SalesFilter) {
  return rows<{ status: string; currency: string | null; n: number; cents: number | null }>(
    db,
    sql`
    select status, currency, count(*) as n, sum(value_cents) as cents from deals
    where account_id = ${accountId} and ${OPEN_DEAL} ${owner(f)}
    group by status, currency`,
  );
}

/** Open deals whose `column` is before `before`. */
export async function openDealsBefore(db: Executor, accountId: number, column: 'next_followup_at' | 'last_activity_at', before: number, f: SalesFilter) {
  const [r] = await rows<{ n: number }>(
    db,
    sql`
    select count(*) as n from deals
    where account_id = ${accountId} and ${OPEN_DEAL} and ${sql.ref(column)} < ${before} ${owner(f)}`,
  );
  return Number(r.n);
}
