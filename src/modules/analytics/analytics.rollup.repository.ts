import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { DAY_MS, type Period } from './analytics.period.ts';
import { rows } from './analytics.sql.ts';

/**
 * Reads of `analytics_daily`, the trigger-maintained daily rollup (migration
 * 2026-11-21T0160_analytics). It answers periods made of whole UTC days (every preset, and
 * custom ranges of bare dates); other periods read the records themselves.
 */
export function wholeDays(p: Period): boolean {
  return p.from % DAY_MS === 0 && p.to % DAY_MS === 0;
}

export type Fact =
  | 'deal_created'
  | 'deal_won_owner'
  | 'deal_lost_owner'
  | 'deal_won_closer'
  | 'deal_lost_closer'
  | 'activity_kind'
  | 'activity_user'
  | 'ticket_created'
  | 'ticket_closed'
  | 'support_log';

/** Activity kinds as the rollup codes them. */
export const KIND_CODES: Record<number, 'note' | 'email' | 'call' | 'meeting'> = { 1: 'note', 2: 'email', 3: 'call', 4: 'meeting' };

function columns(facts: readonly Fact[]) {
  return sql.join(facts.map((f) => sql`sum(case when fact = ${f} then n else 0 end) as ${sql.ref(f)}`));
}

function scope(accountId: number, p: Period, facts: readonly Fact[]) {
  return sql`account_id = ${accountId} and fact in (${sql.join([...facts])}) and day >= ${p.from / DAY_MS} and day < ${p.to / DAY_MS}`;
}

/** Per dimension (user id, kind code; 0 for none), one summed column per fact. Dimensions whose facts all sum to zero are left out. */
export function byDimension<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[], onlyDim?: number) {
  const dim = onlyDim === undefined ? sql`` : sql`and dim = ${onlyDim}`;
  return rows<{ dim: number } & Record<F, number>>(
    db,
    sql`
    select dim, ${columns(facts)} from analytics_daily
    where ${scope(accountId, p, facts)} ${dim}
    group by dim having sum(n) <> 0`,
  );
}

/**
 * Per ISO week (weeks since Monday 1970-01-05, i.e. day 4), one summed column per fact; weeks
 * without any row are left out. The database sums per fact and day, which is the primary key's
 * order (no sort of the period's rows: a year of seven facts is ~100,000 rows on a big account),
 * and the at most 366 days per fact are folded into weeks here.
 */
export async function byWeek<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[]) {
  const days = await rows<{ fact: F; day: number | string; n: number | string }>(
    db,
    sql`
    select fact, day, sum(n) as n from analytics_daily
    where ${scope(accountId, p, facts)}
    group by fact, day`,
  );
  const weeks = new Map<number, { week: number } & Record<F, number>>();
  for (const r of days) {
    const week = Math.trunc((Number(r.day) - 4) / 7);
    let row = weeks.get(week);
    if (!row) {
      row = { week, ...(Object.fromEntries(facts.map((f) => [f, 0])) as Record<F, number>) };
      weeks.set(week, row);
    }
    (row as Record<F, number>)[r.fact] += Number(r.n);
  }
  return [...weeks.values()];
}

/** Funnel stages as fact `funnel_stage` codes its dimension (migration 2026-11-21T0170_funnel). */
const STAGE_CODES: Record<number, string> = { 1: 'new', 2: 'qualified', 3: 'proposal', 4: 'negotiation', 5: 'won' };

/** Per funnel stage, the deals created in the period whose history reached it (fact `funnel_stage`). */
export async function funnelByStage(db: Executor, accountId: number, p: Period) {
  const r = await rows<{ dim: number; n: number }>(
    db,
    sql`
    select dim, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact = 'funnel_stage' and day >= ${p.from / DAY_MS} and day < ${p.to / DAY_MS}
    group by dim`,
  );
  return r.map((x) => ({ stage: STAGE_CODES[Number(x.dim)], n: x.n }));
}
