import { iso } from '../../lib/clock.js';
import { dateRange } from '../../lib/dates.js';
import { notFound, validationError } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import * as repo from './deals.repository.js';
import { renderMoney } from './deals.values.js';
import { existsInAccount } from '../../lib/sql.js';
const nullableId = (v) => (v === null ? null : Number(v));
export function toDealView(r) {
    return {
        id: Number(r.id),
        org_id: Number(r.org_id),
        contact_id: nullableId(r.contact_id),
        owner_user_id: nullableId(r.owner_user_id),
        title: r.title,
        status: r.status,
        value: renderMoney(r.value_cents),
        currency: r.currency,
        payment_customer_id: r.payment_customer_id,
        next_followup_at: iso(r.next_followup_at),
        lost_reason: r.lost_reason_code !== null ? { code: r.lost_reason_code, label: r.lost_reason_label ?? '' } : null,
        closed_at: iso(r.closed_at),
        closed_by_user_id: nullableId(r.closed_by_user_id),
        last_activity_at: iso(r.last_activity_at),
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
    };
}
/** Ids of other records given as filters must exist in the account (404 otherwise, as anywhere). */
export async function requireRefs(db, accountId, refs) {
    if (refs.orgId != null && !(await existsInAccount(db, 'orgs', accountId, refs.orgId)))
        throw notFound('org_not_found', refs.orgId);
    if (refs.ownerUserId != null && !(await existsInAccount(db, 'users', accountId, refs.ownerUserId)))
        throw notFound('user_not_found', refs.ownerUserId);
    if (refs.contactId != null && !(await existsInAccount(db, 'contacts', accountId, refs.contactId)))
        throw notFound('contact_not_found', refs.contactId);
}
export async function listDeals(db, accountId, query, page) {
    const created = dateRange(query, 'created_from', 'created_to');
    const updated = dateRange(query, 'updated_from', 'updated_to');
    await requireRefs(db, accountId, { orgId: query.org_id, ownerUserId: query.owner_user_id, contactId: query.contact_id });
    const filter = {
        status: query.status,
        orgId: query.org_id,
        ownerUserId: query.owner_user_id,
        contactId: query.contact_id,
        q: query.q,
        createdFrom: created.from,
        createdTo: created.to,
        updatedFrom: updated.from,
        updatedTo: updated.to,
    };
    const sort = query.sort ?? 'created_at';
    const direction = query.direction ?? 'desc';
    return listPage(page, () => repo.countDeals(db, accountId, filter), (limit, offset) => repo.listDeals(db, accountId, filter, sort, direction, limit, offset), (rows) => rows.map(toDealView));
}
export async function searchDeals(db, accountId, query, page) {
    if (query.payment_customer_id === undefined && query.contact_email === undefined && query.org_id === undefined) {
        throw validationError({ payment_customer_id: 'required', contact_email: 'required', org_id: 'required' }, 'Give at least one of payment_customer_id, contact_email, org_id.');
    }
    await requireRefs(db, accountId, { orgId: query.org_id });
    const search = {
        paymentCustomerId: query.payment_customer_id,
        contactEmailLc: query.contact_email?.trim().toLowerCase(),
        orgId: query.org_id,
    };
    return listPage(page, () => repo.countSearch(db, accountId, search), (limit, offset) => repo.searchDeals(db, accountId, search, limit, offset), (rows) => rows.map(toDealView));
}
export async function getDealRow(db, accountId, id, options = {}) {
    const row = await repo.findDeal(db, accountId, id, options);
    if (!row)
        throw notFound('deal_not_found', id);
    return row;
}
export async function getDeal(db, accountId, id) {
    return toDealView(await getDealRow(db, accountId, id));
}
