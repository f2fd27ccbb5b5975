import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
export interface SupportCounts {
    key: number | null;
    created: number;
    closed: number;
    support_updates: number;
    currently_open: number;
}
/** Per employee (ticket owner, log author); the row with a null key holds unassigned records. */
export declare function supportByEmployee(db: Executor, accountId: number, p: Period): Promise<SupportCounts[]>;
/**
 * Per customer org, the `limit` busiest (tickets created, closed, updates, open; then org id):
 * whole months from the per-org monthly rollup, the days around them from the records.
 */
export declare function supportByCustomer(db: Executor, accountId: number, p: Period, limit: number): Promise<SupportCounts[]>;
/** Open or pending tickets created before `before` (aged open). */
export declare function openTicketsCreatedBefore(db: Executor, accountId: number, before: number): Promise<number>;
/** Open or pending tickets now, per owner (null: unassigned). */
export declare function openTicketsPerOwner(db: Executor, accountId: number): Promise<{
    key: number | null;
    n: number;
}[]>;
