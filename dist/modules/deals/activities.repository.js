import { countRows } from '../../lib/sql.js';
function ofDeal(db, accountId, dealId) {
    return db.selectFrom('deal_activities').where('account_id', '=', accountId).where('deal_id', '=', dealId);
}
export async function countActivities(db, accountId, dealId) {
    return countRows(db, ofDeal(db, accountId, dealId));
}
export function listActivities(db, accountId, dealId, sort, direction, limit, offset) {
    return ofDeal(db, accountId, dealId).selectAll().orderBy(sort, direction).orderBy('id', direction).limit(limit).offset(offset).execute();
}
export function findActivity(db, accountId, dealId, id) {
    return ofDeal(db, accountId, dealId).selectAll().where('id', '=', id).executeTakeFirst();
}
export function insertActivity(db, values) {
    return db.insertInto('deal_activities').values(values).returningAll().executeTakeFirstOrThrow();
}
