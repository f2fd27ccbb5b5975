// Frozen in time: this migration never imports application code and is never edited once released.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/** Facts about this installation, one row per name (the secret-key fingerprint first of all). */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('settings').execute();
}
