import { countRows, lockedForUpdate } from '../../lib/sql.js';
export function countEndpoints(db, accountId) {
    return countRows(db, db.selectFrom('webhook_endpoints').where('account_id', '=', accountId));
}
export function listEndpoints(db, accountId, limit, offset) {
    return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
}
export function findEndpoint(db, accountId, id, options = {}) {
    const query = db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('id', '=', id);
    return (options.forUpdate ? lockedForUpdate(db, query) : query).executeTakeFirst();
}
export function insertEndpoint(db, values) {
    return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
}
export function updateEndpoint(db, accountId, id, values) {
    return db.updateTable('webhook_endpoints').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
}
/** Deliveries and their attempts go with the endpoint (foreign keys cascade). */
export async function deleteEndpoint(db, accountId, id) {
    const r = await db.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
}
/** Enabled endpoints of these accounts: the fan-out matches event types in JavaScript (stored as JSON). */
export function enabledEndpointsOf(db, accountIds) {
    if (accountIds.length === 0)
        return Promise.resolve([]);
    return db
        .selectFrom('webhook_endpoints')
        .select(['id', 'account_id', 'event_types'])
        .where('account_id', 'in', accountIds)
        .where('enabled', '=', true)
        .execute();
}
