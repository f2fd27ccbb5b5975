import type { Executor } from '../../db/database.ts';
import { type Period } from './analytics.period.ts';
/**
 * Reads of `analytics_daily`, the trigger-maintained daily rollup (migration
 * 2026-11-21T0160_analytics). It answers periods made of whole UTC days (every preset, and
 * custom ranges of bare dates); other periods read the records themselves.
 */
export declare function wholeDays(p: Period): boolean;
export type Fact = 'deal_created' | 'deal_won_owner' | 'deal_lost_owner' | 'deal_won_closer' | 'deal_lost_closer' | 'activity_kind' | 'activity_user' | 'ticket_created' | 'ticket_closed' | 'support_log';
/** Activity kinds as the rollup codes them. */
export declare const KIND_CODES: Record<number, 'note' | 'email' | 'call' | 'meeting'>;
/** Per dimension (user id, kind code; 0 for none), one summed column per fact. Dimensions whose facts all sum to zero are left out. */
export declare function byDimension<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[], onlyDim?: number): Promise<({
    dim: number;
} & Record<F, number>)[]>;
/** Per ISO week (weeks since Monday 1970-01-05, i.e. day 4), one summed column per fact. */
export declare function byWeek<F extends Fact>(db: Executor, accountId: number, p: Period, facts: readonly F[]): Promise<({
    week: number;
} & Record<F, number>)[]>;
/** Per funnel stage, the deals created in the period whose history reached it (fact `funnel_stage`). */
export declare function funnelByStage(db: Executor, accountId: number, p: Period): Promise<{
    stage: string;
    n: number;
}[]>;
