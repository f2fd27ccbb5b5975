import type { Db } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
/** Turns undispatched events into one delivery per (event, enabled subscribed endpoint). Returns events handled. */
export declare function fanOut(db: Db, postgres: boolean, now: number, batch: number): Promise<number>;
export interface AttemptRecord {
    deliveryId: number;
    accountId: number;
    endpointId: number;
    trigger: 'scheduled' | 'manual';
    statusCode: number;
    error: string | null;
    responseBody: string | null;
    durationMs: number;
    requestedAt: number;
    /** Attempts recorded before this one, as seen at the claim. */
    previousAttempts: number;
}
export interface AttemptOutcome {
    status: DeliveryStatus;
    attemptNumber: number;
    nextAttemptAt: number | null;
    disabledReason: string | null;
}
export interface PendingRecord {
    record: AttemptRecord;
    decide: (attemptNumber: number, failingSince: number | null) => AttemptOutcome;
}
/**
 * Writes a batch of attempts and their consequences in one transaction (group commit): each
 * delivery's state, and each endpoint's failure streak (5-day auto-disable) or a 410's disable.
 * A delivery whose endpoint was deleted meanwhile is skipped.
 */
export declare function recordAttempts(db: Db, items: PendingRecord[]): Promise<void>;
