import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ContactsTable } from '../../db/schema.ts';
export type ContactRow = Selectable<ContactsTable>;
export type ContactSort = 'created_at' | 'updated_at' | 'id';
export interface ContactFilter {
    orgId?: number;
    emailLc?: string;
    q?: string;
}
export interface ContactOrder {
    sort: ContactSort;
    direction: 'asc' | 'desc';
}
/** Without a filter the total is the kept count (list_counts); filters count through their index. */
export declare function countContacts(db: Executor, accountId: number, f: ContactFilter): Promise<number>;
export declare function listContacts(db: Executor, accountId: number, f: ContactFilter, order: ContactOrder, limit: number, offset: number): Promise<ContactRow[]>;
export declare function findContact(db: Executor, accountId: number, id: number): Promise<ContactRow | undefined>;
export declare function insertContact(db: Executor, row: Insertable<ContactsTable>): Promise<ContactRow>;
