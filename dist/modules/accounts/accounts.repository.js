export function findAccount(db, id) {
    return db.selectFrom('accounts').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
}
export function insertAccount(db, row) {
    return db.insertInto('accounts').values(row).returning(['id', 'name']).executeTakeFirstOrThrow();
}
