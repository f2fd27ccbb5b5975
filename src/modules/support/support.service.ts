import type { Executor } from '../../db/database.ts';
import type { TicketStatus } from '../../db/schema.ts';
import { iso } from '../../lib/clock.ts';
import { dateRange } from '../../lib/dates.ts';
import { notFound } from '../../lib/errors.ts';
import { entriesPage, listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './support.repository.ts';
import type { SupportLogView, TicketListQueryT, TicketView } from './support.schemas.ts';
import { existsInAccount } from '../../lib/sql.ts';

export function toTicketView(r: repo.TicketRow): TicketView {
  return {
    id: Number(r.id),
    org_id: Number(r.org_id),
    contact_id: r.contact_id === null ? null : Number(r.contact_id),
    owner_user_id: r.owner_user_id === null ? null : Number(r.owner_user_id),
    title: r.title,
    details: r.details,
    status: r.status,
    channel: r.channel,
    external_reference: r.external_reference,
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as Record<string, unknown>),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    closed_at: iso(r.closed_at),
  };
}

export function toLogView(r: repo.LogRow): SupportLogView {
  return {
    id: Number(r.id),
    ticket_id: Number(r.ticket_id),
    note: r.note,
    channel: r.channel,
    author_user_id: r.author_user_id === null ? null : Number(r.author_user_id),
    created_at: iso(r.created_at),
  };
}

/** `open_only` keeps the tickets not closed (open or pending); with `status` both must hold. */
function statusesOf(query: TicketListQueryT): TicketStatus[] | undefined {
  const openOnly = query.open_only === '1' || query.open_only === 'true';
  let statuses: TicketStatus[] | undefined = query.status ? [query.status] : undefined;
  if (openOnly) statuses = (statuses ?? ['open', 'pending', 'closed']).filter((s) => s !== 'closed');
  return statuses;
}

export async function listTickets(db: Executor, accountId: number, query: TicketListQueryT, page: PageRequest): Promise<ListResult<TicketView>> {
  const { from, to } = dateRange(query, 'created_from', 'created_to');
  if (query.org_id !== undefined && !(await existsInAccount(db, 'orgs', accountId, query.org_id))) throw notFound('org_not_found', query.org_id);
  if (query.owner_user_id !== undefined && !(await existsInAccount(db, 'users', accountId, query.owner_user_id))) {
    throw notFound('user_not_found', query.owner_user_id);
  }
  if (query.contact_id !== undefined && !(await existsInAccount(db, 'contacts', accountId, query.contact_id))) {
    throw notFound('contact_not_found', query.contact_id);
  }
  const filter: repo.TicketFilter = {
    statuses: statusesOf(query),
    orgId: query.org_id,
    ownerUserId: query.owner_user_id,
    contactId: query.contact_id,
    q: query.q,
    createdFrom: from,
    createdTo: to,
  };
  const sort = query.sort ?? 'created_at';
  const direction = query.direction ?? 'desc';
  return listPage(
    page,
    () => countOrEmpty(db, accountId, filter),
    (limit, offset, total) => repo.listTickets(db, accountId, filter, sort, direction, limit, offset, total),
    (rows) => rows.map(toTicketView),
    (limit, offset) => repo.listTicketsWithTotal(db, accountId, filter, sort, direction, limit, offset),
  );
}

async function countOrEmpty(db: Executor, accountId: number, filter: repo.TicketFilter): Promise<number> {
  // status=closed with open_only=1 leaves no status to match.
  if (filter.statuses && filter.statuses.length === 0) return 0;
  return repo.countTickets(db, accountId, filter);
}

export async function getTicket(db: Executor, accountId: number, id: number): Promise<TicketView> {
  const row = await repo.findTicket(db, accountId, id);
  if (!row) throw notFound('ticket_not_found', id);
  return toTicketView(row);
}

export async function listLogs(
  db: Executor,
  accountId: number,
  ticketId: number,
  order: { sort?: string; direction?: repo.Direction },
  page: PageRequest,
): Promise<ListResult<SupportLogView>> {
  if (!(await repo.findTicket(db, accountId, ticketId))) throw notFound('ticket_not_found', ticketId);
  return entriesPage(page, order, {
    count: () => repo.countLogs(db, accountId, ticketId),
    list: (sort, direction, limit, offset) => repo.listLogs(db, accountId, ticketId, sort, direction, limit, offset),
    view: toLogView,
  });
}

export async function getLog(db: Executor, accountId: number, ticketId: number, id: number): Promise<SupportLogView> {
  if (!(await repo.findTicket(db, accountId, ticketId))) throw notFound('ticket_not_found', ticketId);
  const row = await repo.findLog(db, accountId, ticketId, id);
  if (!row) throw notFound('support_log_not_found', id);
  return toLogView(row);
}
