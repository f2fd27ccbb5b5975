import type { ModuleDeps } from '../../http/deps.ts';
import type { CreateLogInput, CreateTicketInput, SupportLogView, TicketView, UpdateTicketInput } from './support.schemas.ts';
type Deps = Pick<ModuleDeps, 'db' | 'clock' | 'notifyEvents'>;
/**
 * Creates a ticket and its first log in one transaction with their two events; the org is
 * resolved (and linked on first use) in that same transaction, so a failure leaves nothing.
 */
export declare function createTicket(deps: Deps, accountId: number, input: CreateTicketInput, authorUserId?: number | null): Promise<TicketView & {
    first_log: SupportLogView;
}>;
/**
 * Status, owner and title changes. Moving to `closed` emits support.ticket.closed and sets
 * closed_at; leaving `closed` emits support.ticket.opened and clears it; open ↔ pending and
 * owner or title changes emit nothing. Sending the current values changes nothing.
 */
export declare function updateTicket(deps: Deps, accountId: number, id: number, input: UpdateTicketInput): Promise<TicketView>;
/** Adds a log to a ticket (closed ones too) and counts as an update of the ticket (updated_at). */
export declare function addLog(deps: Deps, accountId: number, ticketId: number, input: CreateLogInput, authorUserId?: number | null): Promise<SupportLogView>;
export {};
