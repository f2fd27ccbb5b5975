import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import { DAY_MS, segments, type Period } from './analytics.period.ts';
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

/**
 * Lost deals of the period per reason code (the label: the greatest of the code's labels). The
 * whole months come from `analytics_lost_reasons` (migration 2026-11-25T0310_analytics_kept),
 * the days around them, periods that are not whole days and one owner's deals from the deals.
 */
export function lostReasons(db: Executor, accountId: number, p: Period, f: SalesFilter) {
  const records = (q: Period) => sql`
    select lost_reason_code as code, max(lost_reason_label) as label, count(*) as n from deals
    where account_id = ${accountId} and ${within('closed_at', q)} and status = 'lost' ${owner(f)}
    group by lost_reason_code`;
  const seg = f.ownerUserId === undefined ? segments(p) : { years: [], months: [], raw: [p] };
  const kept = (s: { a: number; b: number }) => sql`
    select case when missing % 2 = 1 then null else code end as code, case when missing >= 2 then null else label end as label, n
    from analytics_lost_reasons where account_id = ${accountId} and day >= ${s.a} and day < ${s.b} and n <> 0`;
  const parts = [...[...seg.years, ...seg.months].map(kept), ...seg.raw.map(records)];
  return rows<{ code: string | null; label: string | null; n: number }>(
    db,
    sql`select code, max(label) as label, sum(n) as n from (${sql.join(parts, sql` union all `)}) reasons group by code having sum(n) > 0`,
  );
}

/**
 * Rebuilds an account's `analytics_lost_reasons` from its deals, in one transaction: for bulk
 * loads that bypass the row triggers (`custops seed`).
 */
export async function rebuildLostReasons(db: Db, accountId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analytics_lost_reasons').where('account_id', '=', accountId).execute();
    const days = await rows<{ day: number; code: string | null; label: string | null; n: number }>(
      trx,
      sql`select closed_at / ${sql.lit(DAY_MS)} as day, lost_reason_code as code, lost_reason_label as label, count(*) as n from deals
      where account_id = ${accountId} and status = 'lost' and closed_at is not null group by closed_at / ${sql.lit(DAY_MS)}, lost_reason_code, lost_reason_label`,
    );
    const months = new Map<string, { account_id: number; day: number; missing: number; code: string; label: string; n: number }>();
    for (const r of days) {
      const d = new Date(Number(r.day) * DAY_MS);
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
      const missing = (r.code === null ? 1 : 0) + (r.label === null ? 2 : 0);
      const key = JSON.stringify([day, missing, r.code, r.label]);
      const row = months.get(key) ?? { account_id: accountId, day, missing, code: r.code ?? '', label: r.label ?? '', n: 0 };
      row.n += Number(r.n);
      months.set(key, row);
    }
    const all = [...months.values()];
    for (let i = 0; i < all.length; i += 500)
      await trx
        .insertInto('analytics_lost_reasons')
        .values(all.slice(i, i + 500))
        .execute();
  });
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

/**
 * Open deals now: count and value per status and currency (`cents` null where none has a value). The
 * account's figures are kept (`open_pipeline`, migration 2026-11-28T1900: a few shard rows per status
 * and currency); one owner's are counted from that owner's open deals.
 */
export function openPipeline(db: Executor, accountId: number, f: SalesFilter) {
  return rows<{ status: string; currency: string | null; n: number; cents: number | null }>(
    db,
    f.ownerUserId === undefined
      ? sql`
    select status, nullif(currency, '') as currency, sum(n) as n, case when sum(valued) > 0 then sum(cents) end as cents from open_pipeline
    where account_id = ${accountId} group by status, currency having sum(n) > 0`
      : sql`
    select status, currency, count(*) as n, sum(value_cents) as cents from deals
    where account_id = ${accountId} and ${OPEN_DEAL} ${owner(f)}
    group by status, currency`,
  );
}

/** Open deals whose next follow-up is before `before`. */
export async function openDealsFollowUpBefore(db: Executor, accountId: number, before: number, f: SalesFilter) {
  const [r] = await rows<{ n: number }>(
    db,
    sql`
    select count(*) as n from deals
    where account_id = ${accountId} and ${OPEN_DEAL} and next_followup_at < ${before} ${owner(f)}`,
  );
  return Number(r.n);
}

/**
 * Open deals whose last activity is before `before`, from `deals_open_activity`: the open deals'
 * last activity kept off the deals' own indexes, so that a timeline entry moving it is cheap on
 * PostgreSQL (migration 2026-11-28T0400_open_deal_activity; a view of `deals` on SQLite).
 */
export async function openDealsIdleSince(db: Executor, accountId: number, before: number, f: SalesFilter) {
  const [r] = await rows<{ n: number }>(
    db,
    sql`
    select count(*) as n from deals_open_activity
    where account_id = ${accountId} and last_activity_at < ${before} ${owner(f)}`,
  );
  return Number(r.n);
}
