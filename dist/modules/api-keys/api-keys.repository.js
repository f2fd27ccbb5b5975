export function findKeyByHash(db, secretHash) {
    return db
        .selectFrom('api_keys')
        .select(['id', 'account_id', 'scopes', 'rate_limit_per_minute', 'revoked_at', 'last_used_at'])
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
}
export function insertKey(db, row) {
    return db.insertInto('api_keys').values(row).returning(['id']).executeTakeFirstOrThrow();
}
export async function revokeKey(db, id, at) {
    const r = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
}
export function findKeyById(db, id) {
    return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}
export async function touchKey(db, id, at) {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
