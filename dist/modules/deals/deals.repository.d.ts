import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DealsTable, DealStatus } from '../../db/schema.ts';
export type DealRow = Selectable<DealsTable>;
export type DealSort = 'created_at' | 'updated_at' | 'id' | 'title' | 'status';
export type Direction = 'asc' | 'desc';
export interface DealFilter {
    status?: DealStatus;
    orgId?: number;
    ownerUserId?: number;
    contactId?: number;
    q?: string;
    createdFrom?: number | null;
    createdTo?: number | null;
    updatedFrom?: number | null;
    updatedTo?: number | null;
}
export interface DealSearch {
    paymentCustomerId?: string;
    contactEmailLc?: string;
    orgId?: number;
}
/** The whole list and a status are kept counts (list_counts); any other filter counts through its index. */
export declare function countDeals(db: Executor, accountId: number, f: DealFilter): Promise<number>;
export declare function listDeals(db: Executor, accountId: number, f: DealFilter, sort: DealSort, direction: Direction, limit: number, offset: number): Promise<DealRow[]>;
export declare function countSearch(db: Executor, accountId: number, s: DealSearch): Promise<number>;
export declare function searchDeals(db: Executor, accountId: number, s: DealSearch, limit: number, offset: number): Promise<DealRow[]>;
/** `forUpdate` locks the row on PostgreSQL so concurrent state moves serialize (SQLite writers already do). */
export declare function findDeal(db: Executor, accountId: number, id: number, options?: {
    forUpdate?: boolean;
}): Promise<DealRow | undefined>;
export declare function insertDeal(db: Executor, values: Insertable<DealsTable>): Promise<DealRow>;
export declare function updateDeal(db: Executor, accountId: number, id: number, values: Updateable<DealsTable>): Promise<DealRow>;
export declare function insertStatusHistory(db: Executor, row: {
    account_id: number;
    deal_id: number;
    from_status: DealStatus | null;
    to_status: DealStatus;
    changed_by_user_id: number | null;
    changed_at: number;
}): Promise<void>;
export declare function touchLastActivity(db: Executor, accountId: number, id: number, at: number): Promise<void>;
export declare function contactOrg(db: Executor, accountId: number, id: number): Promise<number | undefined>;
