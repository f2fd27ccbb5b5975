import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { DAY_MS, segments, wholeDays, type Period } from './analytics.period.ts';
import { rows } from './analytics.sql.ts';

/**
 * Reads of `analytics_daily`, the trigger-maintained rollup (migrations
 * 2026-11-21T0160_analytics and 2026-11-25T0300_analytics_levels). It answers periods made of
 * whole UTC days (every preset, and custom ranges of bare dates); other periods read the
 * records themselves. See docs/design.md#analytics for its facts and levels.
 */
export { wholeDays };

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

/** Facts also kept for the whole account by day (`<fact>_total`, dimension 0); the others have few dimensions (kinds) or are not in the trends. */
const TOTAL_LEVEL: ReadonlySet<Fact> = new Set(['deal_created', 'deal_won_owner', 'deal_lost_owner', 'ticket_created', 'ticket_closed', 'support_log']);

/** Activity kinds as the rollup codes them. */
export const KIND_CODES: Record<number, 'note' | 'email' | 'call' | 'meeting'> = { 1: 'note', 2: 'email', 3: 'call', 4: 'meeting' };

function columns(facts: readonly Fact[]) {
  return sql.join(facts.map((f) => sql`sum(case when fact in (${f}, ${`${f}_month`}) then n else 0 end) as ${sql.ref(f)}`));
}

/** Rows `(fact, dim, n)` of the given (level-suffixed) facts over days [a, b). */
function range(accountId: number, facts: readonly string[], a: number, b: number, dim: RawBuilder<unknown>) {
  return sql`select fact, dim, n from analytics_daily
    where account_id = ${accountId} and fact in (${sql.join([...facts])}) and day >= ${a} and day < ${b} ${dim}`;
}

/**
 * Rows `(fact, dim, n)` covering a whole-day period: its whole calendar months from the
 * `_month` level (facts named `<fact>_month`) and the days around them from the daily rows.
 */
function perMonthAndDay(accountId: number, p: Period, facts: readonly Fact[], onlyDim?: number) {
  const dim = onlyDim === undefined ? sql`` : sql`and dim = ${onlyDim}`;
  const seg = segments(p);
  const monthly = facts.map((f) => `${f}_month`);
  const parts = [
    ...[...seg.years, ...seg.months].map((s) => range(accountId, monthly, s.a, s.b, dim)),
    ...seg.raw.map((q) => range(accountId, facts, q.from / DAY_MS, q.to / DAY_MS, dim)),
  ];
  return sql.join(parts, sql` union all `);
}

/** Per dimension (user id, kind code; 0 for none), one summed column per fact. Dimensions whose facts all sum to zero are left out. */
export function byDimension<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[], onlyDim?: number) {
  return rows<{ dim: number } & Record<F, number>>(
    db,
    sql`
    select dim, ${columns(facts)} from (${perMonthAndDay(accountId, p, facts, onlyDim)}) levels
    group by dim having sum(n) <> 0`,
  );
}

/**
 * Per ISO week (weeks since Monday 1970-01-05, i.e. day 4), one summed column per fact; weeks
 * without any row are left out. The database sums per fact and day from the whole-account
 * level (`<fact>_total`, one row per day) where there is one, which is the primary key's
 * order, and the at most 366 days per fact are folded into weeks here.
 */
export async function byWeek<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[]) {
  const stored = facts.map((f) => (TOTAL_LEVEL.has(f) ? `${f}_total` : f));
  const days = await rows<{ fact: string; day: number | string; n: number | string }>(
    db,
    sql`
    select fact, day, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact in (${sql.join(stored)}) and day >= ${p.from / DAY_MS} and day < ${p.to / DAY_MS}
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
    (row as Record<F, number>)[facts[stored.indexOf(r.fact)]] += Number(r.n);
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
