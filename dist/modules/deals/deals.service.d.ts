import type { Executor } from '../../db/database.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './deals.repository.ts';
import type { DealListQueryT, DealSearchQueryT, DealView } from './deals.schemas.ts';
export declare function toDealView(r: repo.DealRow): DealView;
/** Ids of other records given as filters must exist in the account (404 otherwise, as anywhere). */
export declare function requireRefs(db: Executor, accountId: number, refs: {
    orgId?: number | null;
    ownerUserId?: number | null;
    contactId?: number | null;
}): Promise<void>;
export declare function listDeals(db: Executor, accountId: number, query: DealListQueryT, page: PageRequest): Promise<ListResult<DealView>>;
export declare function searchDeals(db: Executor, accountId: number, query: DealSearchQueryT, page: PageRequest): Promise<ListResult<DealView>>;
export declare function getDealRow(db: Executor, accountId: number, id: number, options?: {
    forUpdate?: boolean;
}): Promise<repo.DealRow>;
export declare function getDeal(db: Executor, accountId: number, id: number): Promise<DealView>;
