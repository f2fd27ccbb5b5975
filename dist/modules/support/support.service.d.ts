import type { Executor } from '../../db/database.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './support.repository.ts';
import type { SupportLogView, TicketListQueryT, TicketView } from './support.schemas.ts';
export declare function toTicketView(r: repo.TicketRow): TicketView;
export declare function toLogView(r: repo.LogRow): SupportLogView;
export declare function listTickets(db: Executor, accountId: number, query: TicketListQueryT, page: PageRequest): Promise<ListResult<TicketView>>;
export declare function getTicket(db: Executor, accountId: number, id: number): Promise<TicketView>;
export declare function listLogs(db: Executor, accountId: number, ticketId: number, order: {
    sort?: string;
    direction?: repo.Direction;
}, page: PageRequest): Promise<ListResult<SupportLogView>>;
export declare function getLog(db: Executor, accountId: number, ticketId: number, id: number): Promise<SupportLogView>;
