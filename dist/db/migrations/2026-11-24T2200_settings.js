/** Facts about this installation, one row per name (the secret-key fingerprint first of all). */
export async function up(db) {
    await db.schema
        .createTable('settings')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
}
export async function down(db) {
    await db.schema.dropTable('settings').execute();
}
