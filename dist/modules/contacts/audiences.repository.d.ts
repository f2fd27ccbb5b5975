import type { Executor } from '../../db/database.ts';
export interface AudienceRow {
    id: number;
    name: string;
}
export declare function countAudiences(db: Executor, accountId: number): Promise<number>;
export declare function listAudiences(db: Executor, accountId: number, limit: number, offset: number): Promise<AudienceRow[]>;
export declare function findAudience(db: Executor, accountId: number, id: number): Promise<AudienceRow | undefined>;
export declare function findAudienceByName(db: Executor, accountId: number, name: string): Promise<{
    id: number;
} | undefined>;
export declare function insertAudience(db: Executor, row: {
    account_id: number;
    name: string;
    created_at: number;
}): Promise<AudienceRow>;
/** The ids among `ids` that are audiences of the account. */
export declare function existingAudienceIds(db: Executor, accountId: number, ids: number[]): Promise<Set<number>>;
export declare function countMemberships(db: Executor, accountId: number, contactId: number): Promise<number>;
/** The contact's audiences, newest audience first (the list convention). */
export declare function membershipsOf(db: Executor, accountId: number, contactId: number, limit: number, offset: number): Promise<AudienceRow[]>;
export declare function memberAudienceIds(db: Executor, accountId: number, contactId: number): Promise<Set<number>>;
export declare function addMemberships(db: Executor, accountId: number, contactId: number, audienceIds: number[], now: number): Promise<void>;
/** Removes the contact from `audienceIds`, or from every audience when `audienceIds` is null. */
export declare function removeMemberships(db: Executor, accountId: number, contactId: number, audienceIds: number[] | null): Promise<void>;
