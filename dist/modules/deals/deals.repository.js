import { sql, SqliteAdapter } from 'kysely';
import { codePointOrder, containsText, countRows } from '../../lib/sql.js';
function isSqlite(db) {
    return db.getExecutor().adapter instanceof SqliteAdapter;
}
/** Text sorts compare code points on both engines (case-insensitively for titles). */
function sortExpression(db, sort) {
    if (sort === 'title')
        return codePointOrder(db, 'deals.title_lc');
    if (sort === 'status')
        return codePointOrder(db, 'deals.status');
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
        query = query.where(containsText('deals.title_lc', f.q));
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
export async function countDeals(db, accountId, f) {
    return countRows(db, filtered(db, accountId, f));
}
export function listDeals(db, accountId, f, sort, direction, limit, offset) {
    return filtered(db, accountId, f)
        .selectAll('deals')
        .orderBy(sortExpression(db, sort), direction)
        .orderBy('deals.id', direction)
        .limit(limit)
        .offset(offset)
        .execute();
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
    return searched(db, accountId, s).selectAll('deals').orderBy('deals.created_at', 'desc').orderBy('deals.id', 'desc').limit(limit).offset(offset).execute();
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
