import { keptCount } from '../../lib/list-counts.js';
import { countRows } from '../../lib/sql.js';
import { matchesText } from '../../lib/text-search.js';
function filtered(db, accountId, f) {
    let query = db.selectFrom('contacts').where('contacts.account_id', '=', accountId);
    if (f.orgId !== undefined)
        query = query.where('org_id', '=', f.orgId);
    if (f.emailLc !== undefined)
        query = query.where('email_lc', '=', f.emailLc);
    if (f.q)
        query = query.where(matchesText(db, 'contacts', ['contacts.name_lc', 'contacts.email_lc'], f.q));
    return query;
}
/** Without a filter the total is the kept count (list_counts); filters count through their index. */
export async function countContacts(db, accountId, f) {
    if (f.orgId === undefined && f.emailLc === undefined && !f.q)
        return keptCount(db, accountId, 'contacts', ['']);
    return countRows(db, filtered(db, accountId, f));
}
export function listContacts(db, accountId, f, order, limit, offset) {
    const ids = filtered(db, accountId, f).select('contacts.id').orderBy(order.sort, order.direction).orderBy('id', order.direction).limit(limit).offset(offset);
    return db.selectFrom('contacts').selectAll().where('contacts.id', 'in', ids).orderBy(order.sort, order.direction).orderBy('id', order.direction).execute();
}
export function findContact(db, accountId, id) {
    return db.selectFrom('contacts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}
export function insertContact(db, row) {
    return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
}
