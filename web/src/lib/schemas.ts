import type { components } from '../../../src/client/index.ts';

/** The API's own types, generated from its OpenAPI document: the console never retypes them. */
type S = components['schemas'];
export type Deal = S['Deal'];
export type DealActivity = S['DealActivity'];
export type DealStatusChange = S['DealStatusChange'];
export type Ticket = S['Ticket'];
export type SupportLog = S['SupportLog'];
export type Org = S['Org'];
export type Contact = S['Contact'];
export type User = S['User'];
export type ActivityItem = S['ActivityItem'];
export type Pagination = S['Pagination'];

export type DealStatus = Deal['status'];
export const DEAL_STATUSES: readonly DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
export const STATUS_LABEL: Record<DealStatus, string> = {
  new: 'New',
  qualified: 'Qualified',
  proposal: 'Proposal',
  negotiation: 'Negotiation',
  won: 'Won',
  lost: 'Lost',
};
export type TicketStatus = Ticket['status'];
export const TICKET_STATUS_LABEL: Record<TicketStatus, string> = { open: 'Open', pending: 'Pending', closed: 'Closed' };
