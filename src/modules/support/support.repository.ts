import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { CONTACT_COLUMNS, LOG_COLUMNS, TICKET_COLUMNS } from '../../db/columns.ts';
import type { ContactsTable, SupportLogsTable, TicketsTable, TicketStatus } from '../../db/schema.ts';
import { accountRowById } from '../../db/prepared.ts';
import { keptCount } from '../../lib/list-counts.ts';
import { countRows, inList, pageWindow } from '../../lib/sql.ts';
import {
  countTitledCreated,
  countTitledText,
  noFilterSet,
  titledPageWithTotal,
  titledFilters,
  titledSortKey,
  titledTextPlan,
  type TextPlan,
  type TitledFilter,
} from '../../lib/titled-records.ts';

export type TicketRow = Selectable<TicketsTable>;
export type LogRow = Selectable<SupportLogsTable>;
export type ContactRow = Selectable<ContactsTable>;

export interface TicketFilter extends TitledFilter {
  statuses?: TicketStatus[];
}

export type Direction = 'asc' | 'desc';

function filtered(db: Executor, accountId: number, f: TicketFilter, plan: TextPlan = 'index') {
  let query = db.selectFrom('tickets').where('tickets.account_id', '=', accountId);
  if (f.statuses) query = query.where('tickets.status', 'in', inList(f.statuses));
  for (const condition of titledFilters(db, 'tickets', accountId, f, plan)) query = query.where(condition);
  return query;
}

/**
 * The whole list and any set of statuses (open_only included) are kept counts (list_counts); `q`
 * alone is counted in the trigram index where it can be (SQLite); other filters count through their index.
 */
export async function countTickets(db: Executor, accountId: number, f: TicketFilter): Promise<number> {
  const { statuses, ...rest } = f;
  if (noFilterSet(rest)) return keptCount(db, accountId, 'tickets', statuses ? statuses.map((s) => `status:${s}`) : ['']);
  return (
    (await countTitledText(db, 'tickets', accountId, f)) ?? (await countTitledCreated(db, 'tickets', accountId, f)) ?? countRows(db, filtered(db, accountId, f))
  );
}

const sortKey = (db: Executor, sort: string) => titledSortKey(db, 'tickets', sort);

/** The whole list or one status: the page and its kept total in one statement (`titledPageWithTotal`); null for any other filter. */
export function listTicketsWithTotal(
  db: Executor,
  accountId: number,
  f: TicketFilter,
  sort: string,
  dir: Direction,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: TicketRow[] }> | null {
  const { statuses, ...rest } = f;
  if (!noFilterSet(rest) || (statuses !== undefined && statuses.length !== 1)) return null;
  return titledPageWithTotal<TicketRow>(db, 'tickets', TICKET_COLUMNS, accountId, statuses?.[0], sort, dir, limit, offset);
}

export async function listTickets(
  db: Executor,
  accountId: number,
  f: TicketFilter,
  sort: string,
  dir: Direction,
  limit: number,
  offset: number,
  total?: number,
): Promise<TicketRow[]> {
  const plan = await titledTextPlan(db, 'tickets', accountId, f, { total, limit, offset });
  // The page's ids first, from the index alone, then those rows (deep pages skip index entries, not rows).
  let ids = filtered(db, accountId, f, plan).select('tickets.id').orderBy(sortKey(db, sort), dir);
  if (sort !== 'id') ids = ids.orderBy('tickets.id', dir);
  let rows = db
    .selectFrom('tickets')
    .select(TICKET_COLUMNS)
    .where('tickets.id', 'in', pageWindow(ids, limit, offset))
    .orderBy(sortKey(db, sort), dir);
  if (sort !== 'id') rows = rows.orderBy('tickets.id', dir);
  return rows.execute();
}

/** The account's ticket by id; `forUpdate` locks the row (PostgreSQL) so concurrent changes of one ticket run one after the other. */
export const findTicket: (db: Executor, accountId: number, id: number, options?: { forUpdate?: boolean }) => Promise<TicketRow | undefined> = accountRowById(
  'tickets',
  TICKET_COLUMNS,
);

export function insertTicket(db: Executor, row: Insertable<TicketsTable>): Promise<TicketRow> {
  return db.insertInto('tickets').values(row).returning(TICKET_COLUMNS).executeTakeFirstOrThrow();
}

export function updateTicket(db: Executor, accountId: number, id: number, changes: Updateable<TicketsTable>): Promise<TicketRow> {
  return db.updateTable('tickets').set(changes).where('account_id', '=', accountId).where('id', '=', id).returning(TICKET_COLUMNS).executeTakeFirstOrThrow();
}

export function insertLog(db: Executor, row: Insertable<SupportLogsTable>): Promise<LogRow> {
  return db.insertInto('support_logs').values(row).returning(LOG_COLUMNS).executeTakeFirstOrThrow();
}

/** The log entries of one ticket of the account. */
function ofTicket(db: Executor, accountId: number, ticketId: number) {
  return db.selectFrom('support_logs').where('account_id', '=', accountId).where('ticket_id', '=', ticketId);
}

export function countLogs(db: Executor, accountId: number, ticketId: number): Promise<number> {
  return countRows(db, ofTicket(db, accountId, ticketId));
}

export function listLogs(db: Executor, accountId: number, ticketId: number, sort: string, dir: Direction, limit: number, offset: number): Promise<LogRow[]> {
  let query = ofTicket(db, accountId, ticketId).select(LOG_COLUMNS).orderBy(sql.ref(sort), dir);
  if (sort !== 'id') query = query.orderBy('id', dir);
  return pageWindow(query, limit, offset).execute();
}

export function findLog(db: Executor, accountId: number, ticketId: number, id: number): Promise<LogRow | undefined> {
  return ofTicket(db, accountId, ticketId).select(LOG_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A ticket's contact: the contacts module's prepared read. */
export { findContact } from '../contacts/contacts.repository.ts';

/** What decides whether a team user may own tickets. */
export function findOwnerCandidate(
  db: Executor,
  accountId: number,
  id: number,
): Promise<{ is_active: boolean | number; support_enabled: boolean | number } | undefined> {
  return db.selectFrom('users').select(['is_active', 'support_enabled']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** The oldest contact of the org with this (lower-cased) e-mail. */
export function findContactByEmail(db: Executor, accountId: number, orgId: number, emailLc: string): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('org_id', '=', orgId)
    .where('email_lc', '=', emailLc)
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export function insertContact(db: Executor, row: Insertable<ContactsTable>): Promise<ContactRow> {
  return db.insertInto('contacts').values(row).returning(CONTACT_COLUMNS).executeTakeFirstOrThrow();
}
