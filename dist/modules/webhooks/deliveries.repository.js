import { countRows } from '../../lib/sql.js';
function filtered(db, accountId, f) {
    let q = db.selectFrom('webhook_deliveries as d').innerJoin('events as e', 'e.id', 'd.event_id').where('d.account_id', '=', accountId);
    if (f.eventType)
        q = q.where('d.event_type', '=', f.eventType);
    if (f.status)
        q = q.where('d.status', '=', f.status);
    if (f.endpointId !== undefined)
        q = q.where('d.endpoint_id', '=', f.endpointId);
    if (f.from !== null)
        q = q.where('d.created_at', '>=', f.from);
    if (f.to !== null)
        q = q.where('d.created_at', '<=', f.to);
    return q;
}
export async function countDeliveries(db, accountId, f) {
    return countRows(db, filtered(db, accountId, f));
}
export function listDeliveries(db, accountId, f, dir, limit, offset) {
    return filtered(db, accountId, f)
        .selectAll('d')
        .select('e.public_id as event_public_id')
        .orderBy('d.created_at', dir)
        .orderBy('d.id', dir)
        .limit(limit)
        .offset(offset)
        .execute();
}
export function findDelivery(db, accountId, id) {
    return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('events as e', 'e.id', 'd.event_id')
        .selectAll('d')
        .select('e.public_id as event_public_id')
        .where('d.account_id', '=', accountId)
        .where('d.id', '=', id)
        .executeTakeFirst();
}
export function attemptsOf(db, accountId, deliveryId) {
    return db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('delivery_id', '=', deliveryId)
        .orderBy('attempt_number', 'asc')
        .orderBy('id', 'asc')
        .execute();
}
/** Asks for an attempt now, marked manual. */
export async function requeueDelivery(db, accountId, id, now) {
    await db.updateTable('webhook_deliveries').set({ next_attempt_at: now, next_trigger: 'manual' }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
/** Re-queues an endpoint's failed deliveries created in [since, until]. */
export async function requeueFailed(db, accountId, endpointId, since, until, now) {
    const r = await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: now, next_trigger: 'manual' })
        .where('account_id', '=', accountId)
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'failed')
        .where('created_at', '>=', since)
        .where('created_at', '<=', until)
        .executeTakeFirst();
    return Number(r.numUpdatedRows);
}
export async function payloadOf(db, accountId, eventId) {
    const row = await db.selectFrom('events').select('payload').where('account_id', '=', accountId).where('id', '=', eventId).executeTakeFirstOrThrow();
    return row.payload;
}
