import { countRows } from '../../lib/sql.js';
// password_hash is never selected for the API: the secret cannot leak through a forgotten mapping.
const PUBLIC_COLUMNS = ['id', 'email', 'display_name', 'role', 'is_active', 'support_enabled', 'created_at'];
export function insertUser(db, row) {
    return db.insertInto('users').values(row).returning(['id', 'email']).executeTakeFirstOrThrow();
}
function filtered(db, accountId, f) {
    let query = db.selectFrom('users').where('account_id', '=', accountId);
    if (f.activeOnly)
        query = query.where('is_active', '=', true);
    return query;
}
export async function countUsers(db, accountId, f) {
    return countRows(db, filtered(db, accountId, f));
}
export function listUsers(db, accountId, f, order, limit, offset) {
    return filtered(db, accountId, f)
        .select([...PUBLIC_COLUMNS])
        .orderBy(order.sort, order.direction)
        .orderBy('id', order.direction)
        .limit(limit)
        .offset(offset)
        .execute();
}
export function findUser(db, accountId, id) {
    return db.selectFrom('users').select([...PUBLIC_COLUMNS]).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}
export function findUserByEmail(db, accountId, emailLc) {
    return db.selectFrom('users').select('id').where('account_id', '=', accountId).where('email_lc', '=', emailLc).executeTakeFirst();
}
export function insertUserReturning(db, row) {
    return db.insertInto('users').values(row).returning([...PUBLIC_COLUMNS]).executeTakeFirstOrThrow();
}
