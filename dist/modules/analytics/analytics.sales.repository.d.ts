import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
export interface SalesFilter {
    ownerUserId?: number;
    by: 'owner' | 'closer';
}
/** Deals created in the period, per owner. */
export declare function createdPerOwner(db: Executor, accountId: number, p: Period, f: SalesFilter): Promise<{
    user_id: number | null;
    n: number;
}[]>;
/** Deals won and lost with closed_at in the period, per owner or per closer. */
export declare function closedPerRep(db: Executor, accountId: number, p: Period, f: SalesFilter): Promise<{
    user_id: number | null;
    won: number;
    lost: number;
}[]>;
export declare function lostReasons(db: Executor, accountId: number, p: Period, f: SalesFilter): Promise<{
    code: string | null;
    label: string | null;
    n: number;
}[]>;
/**
 * Per funnel stage, the deals created in the period whose status history (creation row
 * included) holds a row with that to_status; a deal counts once per stage. Lost is no stage.
 */
export declare function funnelReach(db: Executor, accountId: number, p: Period, f: SalesFilter): Promise<{
    stage: string;
    n: number;
}[]>;
/** Open deals now: count and value per status and currency. */
export declare function openPipeline(db: Executor, accountId: number, f: SalesFilter): Promise<{
    status: string;
    currency: string | null;
    n: number;
    cents: number | null;
}[]>;
/** Open deals whose `column` is before `before`. */
export declare function openDealsBefore(db: Executor, accountId: number, column: 'next_followup_at' | 'last_activity_at', before: number, f: SalesFilter): Promise<number>;
