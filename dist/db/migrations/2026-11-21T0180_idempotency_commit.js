/** When the request's write transaction committed (set in that transaction); null while it has not. */
export async function up(db) {
    await db.schema.alterTable('idempotency_keys').addColumn('committed_at', 'bigint').execute();
}
export async function down(db) {
    await db.schema.alterTable('idempotency_keys').dropColumn('committed_at').execute();
}
