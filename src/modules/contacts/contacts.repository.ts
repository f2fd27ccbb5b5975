import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ContactsTable } from '../../db/schema.ts';
import { containsText, countRows } from '../../lib/sql.ts';

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
  let query = db.selectFrom('contacts').where('account_id', '=', accountId);
  if (f.orgId !== undefined) query = query.where('org_id', '=', f.orgId);
  if (f.emailLc !== undefined) query = query.where('email_lc', '=', f.emailLc);
  if (f.q) query = query.where((eb) => eb.or([containsText('name_lc', f.q!), containsText('email_lc', f.q!)]));
  return query;
}

export async function countContacts(db: Executor, accountId: number, f: ContactFilter): Promise<number> {
  return countRows(db, filtered(db, accountId, f));
}

export function listContacts(db: Executor, accountId: number, f: ContactFilter, order: ContactOrder, limit: number, offset: number): Promise<ContactRow[]> {
  return filtered(db, accountId, f)
    .selectAll()
    .orderBy(order.sort, order.direction)
    .orderBy('id', order.direction)
    .limit(limit)
    .offset(offset)
    .execute();
}

export function findContact(db: Executor, accountId: number, id: number): Promise<ContactRow | undefined> {
  return db.selectFrom('contacts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function insertContact(db: Executor, row: Insertable<ContactsTable>): Promise<ContactRow> {
  return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
}

