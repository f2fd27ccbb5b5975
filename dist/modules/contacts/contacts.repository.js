import { containsText, countRows } from '../../lib/sql.js';
function filtered(db, accountId, f) {
    let query = db.selectFrom('contacts').where('account_id', '=', accountId);
    if (f.orgId !== undefined)
        query = query.where('org_id', '=', f.orgId);
    if (f.emailLc !== undefined)
        query = query.where('email_lc', '=', f.emailLc);
    if (f.q)
        query = query.where((eb) => eb.or([containsText('name_lc', f.q), containsText('email_lc', f.q)]));
    return query;
}
export async function countContacts(db, accountId, f) {
    return countRows(db, filtered(db, accountId, f));
}
export function listContacts(db, accountId, f, order, limit, offset) {
    return filtered(db, accountId, f)
        .selectAll()
        .orderBy(order.sort, order.direction)
        .orderBy('id', order.direction)
        .limit(limit)
        .offset(offset)
        .execute();
}
export function findContact(db, accountId, id) {
    return db.selectFrom('contacts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}
export function insertContact(db, row) {
    return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
}
