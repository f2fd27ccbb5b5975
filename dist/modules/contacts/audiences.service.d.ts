import type { Db, Dialect, Executor } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import { type AudienceView } from './contacts.schemas.ts';
interface WriteDeps {
    db: Db;
    dialect: Dialect;
    clock: Clock;
}
export declare function listAudiences(db: Executor, accountId: number, page: PageRequest): Promise<ListResult<AudienceView>>;
export declare function getAudience(db: Executor, accountId: number, id: number): Promise<AudienceView>;
export declare function createAudience(deps: WriteDeps, accountId: number, name: string): Promise<AudienceView>;
export declare function contactAudiences(db: Executor, accountId: number, contactId: number, page: PageRequest): Promise<ListResult<AudienceView>>;
export declare function replaceAudiences(deps: WriteDeps, accountId: number, contactId: number, audienceIds: number[]): Promise<ListResult<AudienceView>>;
/** Removes the contact from the given audiences, or from all when `audienceIds` is undefined. */
export declare function removeAudiences(deps: WriteDeps, accountId: number, contactId: number, audienceIds: number[] | undefined): Promise<ListResult<AudienceView>>;
export {};
