export async function claimKey(db, row) {
    const inserted = await db
        .insertInto('idempotency_keys')
        .values({ ...row, state: 'running' })
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .returning(['id'])
        .executeTakeFirst();
    return inserted?.id ?? null;
}
export function findKey(db, accountId, key) {
    return db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
}
/** Takes over an expired or abandoned record, only if it is still the one we looked at. */
export async function retakeKey(db, id, seenCreatedAt, row) {
    const r = await db
        .updateTable('idempotency_keys')
        .set({ ...row, state: 'running', response_status: null, response_body: null, location: null })
        .where('id', '=', id)
        .where('created_at', '=', seenCreatedAt)
        .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
}
export async function completeKey(db, id, status, body, location) {
    await db.updateTable('idempotency_keys').set({ state: 'done', response_status: status, response_body: body, location }).where('id', '=', id).execute();
}
export async function releaseKey(db, id) {
    await db.deleteFrom('idempotency_keys').where('id', '=', id).execute();
}
export async function purgeExpiredKeys(db, now) {
    const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
}
