import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { CONTACT_COLUMNS } from '../../db/columns.ts';
import { accountRowById } from '../../db/prepared.ts';
import type { ContactsTable } from '../../db/schema.ts';
import { keptCount } from '../../lib/list-counts.ts';
import { countRows, pageWindow } from '../../lib/sql.ts';
import { matchesText } from '../../lib/text-search.ts';

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

function filtered(db: Executor, accountId: number, f: ContactFilter) {
  let query = db.selectFrom('contacts').where('contacts.account_id', '=', accountId);
  if (f.orgId !== undefined) query = query.where('org_id', '=', f.orgId);
  if (f.emailLc !== undefined) query = query.where('email_lc', '=', f.emailLc);
  if (f.q) query = query.where(matchesText(db, 'contacts', accountId, ['contacts.name_lc', 'contacts.email_lc'], f.q));
  return query;
}

/** Without a filter the total is the kept count (list_counts); filters count through their index. */
export async function countContacts(db: Executor, accountId: number, f: ContactFilter): Promise<number> {
  if (f.orgId === undefined && f.emailLc === undefined && !f.q) return keptCount(db, accountId, 'contacts', ['']);
  return countRows(db, filtered(db, accountId, f));
}

export function listContacts(db: Executor, accountId: number, f: ContactFilter, order: ContactOrder, limit: number, offset: number): Promise<ContactRow[]> {
  const ids = pageWindow(filtered(db, accountId, f).select('contacts.id').orderBy(order.sort, order.direction).orderBy('id', order.direction), limit, offset);
  return db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('contacts.id', 'in', ids)
    .orderBy(order.sort, order.direction)
    .orderBy('id', order.direction)
    .execute();
}

/** The account's contact by id; `forUpdate` locks the row (PostgreSQL) so concurrent writes about one contact run one after the other. */
export const findContact: (db: Executor, accountId: number, id: number, options?: { forUpdate?: boolean }) => Promise<ContactRow | undefined> = accountRowById(
  'contacts',
  CONTACT_COLUMNS,
);

export function insertContact(db: Executor, row: Insertable<ContactsTable>): Promise<ContactRow> {
  return db.insertInto('contacts').values(row).returning(CONTACT_COLUMNS).executeTakeFirstOrThrow();
}
