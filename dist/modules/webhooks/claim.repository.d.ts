import type { Db } from '../../db/database.ts';
/**
 * Claiming due deliveries. A claim is a lease (`locked_until`): the worker owns the delivery
 * until then, and one that dies mid-attempt loses it when the lease runs out (at least once).
 * On PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED, so workers never take the same row.
 */
export interface ClaimedDelivery {
    id: number;
    account_id: number;
    endpoint_id: number;
    event_type: string;
    next_trigger: 'manual' | null;
    /** Attempts recorded before this claim. */
    attempts: number;
    is_test: boolean | number;
    url: string;
    secret_encrypted: string;
    previous_secret_encrypted: string | null;
    previous_secret_expires_at: number | null;
    public_id: string;
    payload: string;
}
export interface ClaimPlan {
    /** Slots free in this process. */
    room: number;
    perEndpoint: number;
    /** Attempts in flight in this process, by endpoint. */
    inflight: ReadonlyMap<number, number>;
}
/**
 * Claims due deliveries of enabled endpoints within the caps. First the oldest due rows (the
 * cheap, common case); when those belong to endpoints already at their cap, the other endpoints
 * with due work are served from their own index range, so one endpoint's backlog is never scanned.
 */
export declare function claimDue(db: Db, postgres: boolean, now: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedDelivery[]>;
/** Gives back claims that were never attempted (graceful stop), so any worker may take them at once. */
export declare function releaseLeases(db: Db, ids: number[]): Promise<void>;
/** For the loop's idle check and the metrics. */
export declare function hasDueWork(db: Db, now: number): Promise<boolean>;
