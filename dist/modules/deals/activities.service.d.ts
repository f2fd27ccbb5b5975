import type { Executor } from '../../db/database.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './activities.repository.ts';
import type { CreateActivityInput, DealActivityView } from './deals.schemas.ts';
import type { Actor } from './deals.writes.ts';
export declare function toActivityView(r: repo.ActivityRow): DealActivityView;
export declare function listActivities(db: Executor, accountId: number, dealId: number, order: {
    sort?: 'created_at' | 'id';
    direction?: 'asc' | 'desc';
}, page: PageRequest): Promise<ListResult<DealActivityView>>;
export declare function getActivity(db: Executor, accountId: number, dealId: number, id: number): Promise<DealActivityView>;
type Deps = Pick<ModuleDeps, 'db' | 'clock' | 'notifyEvents'>;
/** Logs a timeline entry: the row, the deal's last_activity_at and deal.activity.created commit together. */
export declare function createActivity(deps: Deps, actor: Actor, dealId: number, input: CreateActivityInput): Promise<DealActivityView>;
export {};
