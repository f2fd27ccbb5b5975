import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
export interface TeamCounts {
    user_id: number | null;
    deals_created: number;
    deals_won: number;
    deals_lost: number;
    activities: number;
    tickets_closed: number;
    support_logs: number;
}
/**
 * Per-user facts of the period, one indexed pass per fact: deals created and won/lost (by
 * owner), deal activities (by author), tickets closed (by owner), support logs (by author).
 * The null user_id row holds records without a user (made by API keys, or unassigned).
 */
export declare function teamCounts(db: Executor, accountId: number, p: Period): Promise<TeamCounts[]>;
export declare function accountUsers(db: Executor, accountId: number): Promise<{
    display_name: string;
    id: number;
    is_active: number | boolean;
}[]>;
