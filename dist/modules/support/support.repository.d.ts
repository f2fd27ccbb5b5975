import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ContactsTable, SupportLogsTable, TicketsTable, TicketStatus } from '../../db/schema.ts';
export type TicketRow = Selectable<TicketsTable>;
export type LogRow = Selectable<SupportLogsTable>;
export type ContactRow = Selectable<ContactsTable>;
export interface TicketFilter {
    statuses?: TicketStatus[];
    orgId?: number;
    ownerUserId?: number;
    contactId?: number;
    q?: string;
    createdFrom?: number | null;
    createdTo?: number | null;
}
export type Direction = 'asc' | 'desc';
/** The whole list and any set of statuses (open_only included) are kept counts (list_counts); other filters count through their index. */
export declare function countTickets(db: Executor, accountId: number, f: TicketFilter): Promise<number>;
export declare function listTickets(db: Executor, accountId: number, f: TicketFilter, sort: string, dir: Direction, limit: number, offset: number): Promise<TicketRow[]>;
export declare function findTicket(db: Executor, accountId: number, id: number, options?: {
    forUpdate?: boolean;
}): Promise<TicketRow | undefined>;
export declare function insertTicket(db: Executor, row: Insertable<TicketsTable>): Promise<TicketRow>;
export declare function updateTicket(db: Executor, accountId: number, id: number, changes: Updateable<TicketsTable>): Promise<TicketRow>;
export declare function insertLog(db: Executor, row: Insertable<SupportLogsTable>): Promise<LogRow>;
export declare function countLogs(db: Executor, accountId: number, ticketId: number): Promise<number>;
export declare function listLogs(db: Executor, accountId: number, ticketId: number, sort: string, dir: Direction, limit: number, offset: number): Promise<LogRow[]>;
export declare function findLog(db: Executor, accountId: number, ticketId: number, id: number): Promise<LogRow | undefined>;
export declare function findContact(db: Executor, accountId: number, id: number): Promise<ContactRow | undefined>;
/** The oldest contact of the org with this (lower-cased) e-mail. */
export declare function findContactByEmail(db: Executor, accountId: number, orgId: number, emailLc: string): Promise<ContactRow | undefined>;
export declare function insertContact(db: Executor, row: Insertable<ContactsTable>): Promise<ContactRow>;
