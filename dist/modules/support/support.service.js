import { iso } from '../../lib/clock.js';
import { dateRange } from '../../lib/dates.js';
import { notFound } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import * as repo from './support.repository.js';
import { existsInAccount } from '../../lib/sql.js';
export function toTicketView(r) {
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
        metadata: r.metadata === null ? null : JSON.parse(r.metadata),
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        closed_at: iso(r.closed_at),
    };
}
export function toLogView(r) {
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
function statusesOf(query) {
    const openOnly = query.open_only === '1' || query.open_only === 'true';
    let statuses = query.status ? [query.status] : undefined;
    if (openOnly)
        statuses = (statuses ?? ['open', 'pending', 'closed']).filter((s) => s !== 'closed');
    return statuses;
}
export async function listTickets(db, accountId, query, page) {
    const { from, to } = dateRange(query, 'created_from', 'created_to');
    if (query.org_id !== undefined && !(await existsInAccount(db, 'orgs', accountId, query.org_id)))
        throw notFound('org_not_found', query.org_id);
    if (query.owner_user_id !== undefined && !(await existsInAccount(db, 'users', accountId, query.owner_user_id))) {
        throw notFound('user_not_found', query.owner_user_id);
    }
    if (query.contact_id !== undefined && !(await existsInAccount(db, 'contacts', accountId, query.contact_id))) {
        throw notFound('contact_not_found', query.contact_id);
    }
    const filter = {
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
    return listPage(page, () => countOrEmpty(db, accountId, filter), (limit, offset) => repo.listTickets(db, accountId, filter, sort, direction, limit, offset), (rows) => rows.map(toTicketView));
}
async function countOrEmpty(db, accountId, filter) {
    // status=closed with open_only=1 leaves no status to match.
    if (filter.statuses && filter.statuses.length === 0)
        return 0;
    return repo.countTickets(db, accountId, filter);
}
export async function getTicket(db, accountId, id) {
    const row = await repo.findTicket(db, accountId, id);
    if (!row)
        throw notFound('ticket_not_found', id);
    return toTicketView(row);
}
export async function listLogs(db, accountId, ticketId, order, page) {
    if (!(await repo.findTicket(db, accountId, ticketId)))
        throw notFound('ticket_not_found', ticketId);
    return listPage(page, () => repo.countLogs(db, accountId, ticketId), (limit, offset) => repo.listLogs(db, accountId, ticketId, order.sort ?? 'created_at', order.direction ?? 'desc', limit, offset), (rows) => rows.map(toLogView));
}
export async function getLog(db, accountId, ticketId, id) {
    if (!(await repo.findTicket(db, accountId, ticketId)))
        throw notFound('ticket_not_found', ticketId);
    const row = await repo.findLog(db, accountId, ticketId, id);
    if (!row)
        throw notFound('support_log_not_found', id);
    return toLogView(row);
}
