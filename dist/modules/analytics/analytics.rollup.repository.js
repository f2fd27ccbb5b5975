import { sql } from 'kysely';
import { DAY_MS } from './analytics.period.js';
import { rows } from './analytics.sql.js';
/**
 * Reads of `analytics_daily`, the trigger-maintained daily rollup (migration
 * 2026-11-21T0160_analytics). It answers periods made of whole UTC days (every preset, and
 * custom ranges of bare dates); other periods read the records themselves.
 */
export function wholeDays(p) {
    return p.from % DAY_MS === 0 && p.to % DAY_MS === 0;
}
/** Activity kinds as the rollup codes them. */
export const KIND_CODES = { 1: 'note', 2: 'email', 3: 'call', 4: 'meeting' };
function columns(facts) {
    return sql.join(facts.map((f) => sql `sum(case when fact = ${f} then n else 0 end) as ${sql.ref(f)}`));
}
function scope(accountId, p, facts) {
    return sql `account_id = ${accountId} and fact in (${sql.join([...facts])}) and day >= ${p.from / DAY_MS} and day < ${p.to / DAY_MS}`;
}
/** Per dimension (user id, kind code; 0 for none), one summed column per fact. Dimensions whose facts all sum to zero are left out. */
export function byDimension(db, accountId, p, facts, onlyDim) {
    const dim = onlyDim === undefined ? sql `` : sql `and dim = ${onlyDim}`;
    return rows(db, sql `
    select dim, ${columns(facts)} from analytics_daily
    where ${scope(accountId, p, facts)} ${dim}
    group by dim having sum(n) <> 0`);
}
/** Per ISO week (weeks since Monday 1970-01-05, i.e. day 4), one summed column per fact. */
export function byWeek(db, accountId, p, facts) {
    return rows(db, sql `
    select (day - 4) / 7 as week, ${columns(facts)} from analytics_daily
    where ${scope(accountId, p, facts)}
    group by (day - 4) / 7`);
}
/** Funnel stages as fact `funnel_stage` codes its dimension (migration 2026-11-21T0170_funnel). */
const STAGE_CODES = { 1: 'new', 2: 'qualified', 3: 'proposal', 4: 'negotiation', 5: 'won' };
/** Per funnel stage, the deals created in the period whose history reached it (fact `funnel_stage`). */
export async function funnelByStage(db, accountId, p) {
    const r = await rows(db, sql `
    select dim, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact = 'funnel_stage' and day >= ${p.from / DAY_MS} and day < ${p.to / DAY_MS}
    group by dim`);
    return r.map((x) => ({ stage: STAGE_CODES[Number(x.dim)], n: x.n }));
}
