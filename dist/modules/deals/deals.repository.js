import { sql, SqliteAdapter } from 'kysely';
import { keptCount } from '../../lib/list-counts.js';
import { codePointOrder, countRows } from '../../lib/sql.js';
import { matchesText } from '../../lib/text-search.js';
function isSqlite(db) {
    return db.getExecutor().adapter instanceof SqliteAdapter;
}
/** Text sorts compare code points on both engines (case-insensitively for titles). */
function sortExpression(db, sort) {
    if (sort === 'title')
        return codePointOrder(db, 'deals.title_lc');
    // Statuses are lower-case ASCII words: every collation orders them by code point, and the plain index serves it.
    if (sort === 'status')
        return sql.ref('deals.status');
    return sql.ref(`deals.${sort}`);
}
function filtered(db, accountId, f) {
    let query = db.selectFrom('deals').where('deals.account_id', '=', accountId);
    if (f.status)
        query = query.where('deals.status', '=', f.status);
    if (f.orgId !== undefined)
        query = query.where('deals.org_id', '=', f.orgId);
    if (f.ownerUserId !== undefined)
        query = query.where('deals.owner_user_id', '=', f.ownerUserId);
    if (f.contactId !== undefined)
        query = query.where('deals.contact_id', '=', f.contactId);
    if (f.q)
        query = query.where(matchesText(db, 'deals', ['deals.title_lc'], f.q));
    if (f.createdFrom != null)
        query = query.where('deals.created_at', '>=', f.createdFrom);
    if (f.createdTo != null)
        query = query.where('deals.created_at', '<=', f.createdTo);
    if (f.updatedFrom != null)
        query = query.where('deals.updated_at', '>=', f.updatedFrom);
    if (f.updatedTo != null)
        query = query.where('deals.updated_at', '<=', f.updatedTo);
    return query;
}
/** The whole list and a status are kept counts (list_counts); any other filter counts through its index. */
export async function countDeals(db, accountId, f) {
    const { status, ...rest } = f;
    if (Object.values(rest).every((v) => v === undefined || v === null || v === '')) {
        return keptCount(db, accountId, 'deals', [status ? `status:${status}` : '']);
    }
    return countRows(db, filtered(db, accountId, f));
}
export function listDeals(db, accountId, f, sort, direction, limit, offset) {
    // The page's ids first, from the index alone (the offset skips index entries, not rows), then those rows.
    const ids = filtered(db, accountId, f).select('deals.id').orderBy(sortExpression(db, sort), direction).orderBy('deals.id', direction).limit(limit).offset(offset);
    return db.selectFrom('deals').selectAll('deals').where('deals.id', 'in', ids)
        .orderBy(sortExpression(db, sort), direction).orderBy('deals.id', direction).execute();
}
function searched(db, accountId, s) {
    let query = db.selectFrom('deals').where('deals.account_id', '=', accountId);
    if (s.paymentCustomerId !== undefined)
        query = query.where('deals.payment_customer_id', '=', s.paymentCustomerId);
    if (s.orgId !== undefined)
        query = query.where('deals.org_id', '=', s.orgId);
    if (s.contactEmailLc !== undefined) {
        const email = s.contactEmailLc;
        // Contacts with that e-mail first (by index), then their deals: never a probe per deal of the account.
        query = query.where('deals.contact_id', 'in', (eb) => eb.selectFrom('contacts').select('contacts.id').where('contacts.account_id', '=', accountId).where('contacts.email_lc', '=', email));
    }
    return query;
}
export async function countSearch(db, accountId, s) {
    return countRows(db, searched(db, accountId, s));
}
export function searchDeals(db, accountId, s, limit, offset) {
    const ids = searched(db, accountId, s).select('deals.id').orderBy('deals.created_at', 'desc').orderBy('deals.id', 'desc').limit(limit).offset(offset);
    return db.selectFrom('deals').selectAll('deals').where('deals.id', 'in', ids).orderBy('deals.created_at', 'desc').orderBy('deals.id', 'desc').execute();
}
/** `forUpdate` locks the row on PostgreSQL so concurrent state moves serialize (SQLite writers already do). */
export function findDeal(db, accountId, id, options = {}) {
    let query = db.selectFrom('deals').selectAll().where('account_id', '=', accountId).where('id', '=', id);
    if (options.forUpdate && !isSqlite(db))
        query = query.forUpdate();
    return query.executeTakeFirst();
}
export async function insertDeal(db, values) {
    return db.insertInto('deals').values(values).returningAll().executeTakeFirstOrThrow();
}
export async function updateDeal(db, accountId, id, values) {
    return db.updateTable('deals').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
export async function insertStatusHistory(db, row) {
    await db.insertInto('deal_status_history').values(row).execute();
}
export async function touchLastActivity(db, accountId, id, at) {
    await db.updateTable('deals').set({ last_activity_at: at }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
// Existence checks for ids given in filters and bodies: always within the account.
export async function contactOrg(db, accountId, id) {
    const r = await db.selectFrom('contacts').select('org_id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return r ? Number(r.org_id) : undefined;
}
