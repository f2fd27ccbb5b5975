import { iso } from '../../lib/clock.js';
import { dateRange } from '../../lib/dates.js';
import { notFound, validationError } from '../../lib/errors.js';
import { offsetOf, paginate } from '../../lib/pagination.js';
import * as repo from './activity.repository.js';
import { ACTIVITY_CAP_PER_SOURCE } from './activity.schemas.js';
import { existsInAccount } from '../../lib/sql.js';
const SOURCES = {
    all: ['timeline', 'support_log'],
    timeline: ['timeline'],
    sales: ['timeline'],
    support_log: ['support_log'],
    support: ['support_log'],
};
/**
 * Feed order: created_at desc; at equal times the larger numeric id first, then timeline
 * before support_log, so the order is total and stable across pages.
 */
function newestFirst(a, b) {
    return b.created_at - a.created_at || b.id - a.id || (a.source === b.source ? 0 : a.source === 'timeline' ? -1 : 1);
}
/** Filters naming another account's records are 404, exactly as if they did not exist. */
async function checkFilterIds(db, accountId, f) {
    const checks = [
        [f.orgId, 'orgs', 'org_not_found'],
        [f.userId, 'users', 'user_not_found'],
        [f.dealId, 'deals', 'deal_not_found'],
        [f.ticketId, 'tickets', 'ticket_not_found'],
    ];
    for (const [id, table, code] of checks) {
        if (id !== undefined && !(await existsInAccount(db, table, accountId, id)))
            throw notFound(code, id);
    }
}
function filterOf(query) {
    if (query.employee_user_id !== undefined && query.user_id !== undefined && query.employee_user_id !== query.user_id) {
        throw validationError({ user_id: 'invalid' }, 'user_id is an alias of employee_user_id; when both are given they must be equal.');
    }
    const { from, to } = dateRange(query, 'from', 'to');
    return {
        orgId: query.org_id,
        userId: query.employee_user_id ?? query.user_id,
        dealId: query.deal_id,
        ticketId: query.ticket_id,
        from,
        to,
    };
}
/**
 * The unified feed. Each source contributes at most its newest 500 matching rows; the two
 * capped lists are merged and the page is cut from the merged set, so `total` counts the
 * capped set. Only keys are read for the merge; full rows are fetched for the page alone.
 */
export async function listActivity(db, accountId, query, page) {
    const filter = filterOf(query);
    await checkFilterIds(db, accountId, filter);
    const sources = SOURCES[query.source ?? 'all'];
    const merged = [];
    // A deal filter matches no support log and a ticket filter no timeline entry.
    if (sources.includes('timeline') && filter.ticketId === undefined) {
        for (const k of await repo.timelineKeys(db, accountId, filter, ACTIVITY_CAP_PER_SOURCE))
            merged.push({ ...k, source: 'timeline' });
    }
    if (sources.includes('support_log') && filter.dealId === undefined) {
        for (const k of await repo.supportLogKeys(db, accountId, filter, ACTIVITY_CAP_PER_SOURCE))
            merged.push({ ...k, source: 'support_log' });
    }
    merged.sort(newestFirst);
    const offset = offsetOf(page);
    const slice = merged.slice(offset, offset + page.per_page);
    const [timeline, logs] = await Promise.all([
        repo.timelineRows(db, accountId, slice.filter((k) => k.source === 'timeline').map((k) => k.id)),
        repo.supportLogRows(db, accountId, slice.filter((k) => k.source === 'support_log').map((k) => k.id)),
    ]);
    const byKey = new Map();
    for (const r of timeline)
        byKey.set(`timeline:${r.id}`, timelineView(r));
    for (const r of logs)
        byKey.set(`support_log:${r.id}`, supportLogView(r));
    // A row deleted between the two reads drops out of the page rather than failing it.
    const data = slice.map((k) => byKey.get(`${k.source}:${k.id}`)).filter((v) => v !== undefined);
    return { data, pagination: paginate(page, merged.length) };
}
function people(r) {
    return {
        employee: r.user_id === null ? null : { id: Number(r.user_id), display_name: r.user_display_name, email: r.user_email },
        customer: {
            org_id: Number(r.org_id),
            name: r.org_name,
            contact: r.contact_id === null ? null : { id: Number(r.contact_id), name: r.contact_name, email: r.contact_email },
        },
    };
}
function timelineView(r) {
    return {
        id: `timeline:${r.id}`,
        type: r.event_type,
        source: 'timeline',
        content: r.message,
        ...people(r),
        deal_id: Number(r.deal_id),
        ticket_id: null,
        outcome: r.outcome,
        channel: null,
        occurred_at: iso(r.created_at),
        created_at: iso(r.created_at),
    };
}
function supportLogView(r) {
    return {
        id: `support_log:${r.id}`,
        type: 'support_log',
        source: 'support_log',
        content: r.note,
        ...people(r),
        deal_id: null,
        ticket_id: Number(r.ticket_id),
        outcome: null,
        channel: r.channel,
        occurred_at: iso(r.created_at),
        created_at: iso(r.created_at),
    };
}
