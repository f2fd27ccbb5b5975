import type { DatabaseHandle } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
export interface SeedOptions {
    accountId: number;
    deals: number;
    seed: number;
    /** `direct` (default) bypasses row triggers and writes their effect itself; `triggers` lets every trigger fire (slow; tests compare the two). */
    mode?: 'direct' | 'triggers';
    /** Progress lines (stderr in the CLI). */
    progress?: (line: string) => void;
}
export type SeedCounts = Record<'users' | 'orgs' | 'contacts' | 'deals' | 'deal_status_history' | 'deal_activities' | 'tickets' | 'support_logs', number>;
export declare class SeedInputError extends Error {
}
/**
 * Fills an existing account with a realistic, deterministic data set in proportion to
 * `deals` (see plan.ts): team users, orgs, contacts, then deals with their status history and
 * timeline, and tickets with their logs, in batches of one transaction each. Every batch
 * commits its rows together with the analytics rollups and list counts they imply, so the
 * account is consistent after every commit (an interrupted seed leaves whole batches only).
 */
export declare function seedAccount(handle: DatabaseHandle, clock: Clock, o: SeedOptions): Promise<SeedCounts>;
