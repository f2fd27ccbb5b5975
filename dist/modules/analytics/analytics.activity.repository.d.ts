import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
/** Timeline activities of the period per kind, and support logs of the period (kind `support_log`). */
export declare function activityByKind(db: Executor, accountId: number, p: Period): Promise<{
    kind: string;
    n: number;
}[]>;
export interface WeekCounts {
    week: number;
    deals_created: number;
    deals_won: number;
    deals_lost: number;
    activities: number;
    tickets_created: number;
    tickets_closed: number;
    support_logs: number;
}
/** Facts of the period per ISO week bucket (weeks since Monday 1970-01-05); weeks without facts are absent. */
export declare function weeklyCounts(db: Executor, accountId: number, p: Period): Promise<WeekCounts[]>;
