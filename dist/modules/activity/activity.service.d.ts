import type { Executor } from '../../db/database.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import { type ActivityItemView, type ActivityListQueryType } from './activity.schemas.ts';
/**
 * The unified feed. Each source contributes at most its newest 500 matching rows; the two
 * capped lists are merged and the page is cut from the merged set, so `total` counts the
 * capped set. Only keys are read for the merge; full rows are fetched for the page alone.
 */
export declare function listActivity(db: Executor, accountId: number, query: ActivityListQueryType, page: PageRequest): Promise<ListResult<ActivityItemView>>;
