import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './contacts.repository.ts';
import type { ContactView, CreateContactInput } from './contacts.schemas.ts';
export declare function toContactView(r: repo.ContactRow): ContactView;
export interface ContactQuery {
    org_id?: number;
    email?: string;
    q?: string;
}
export declare function listContacts(db: Executor, accountId: number, query: ContactQuery, order: repo.ContactOrder, page: PageRequest): Promise<ListResult<ContactView>>;
export declare function getContact(db: Executor, accountId: number, id: number): Promise<ContactView>;
export declare function createContact(deps: {
    db: Db;
    clock: Clock;
}, accountId: number, input: CreateContactInput): Promise<ContactView>;
