// Frozen in time: this migration never imports application code and is never edited once released.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * `auth_changes`: one row whose `version` every change to who may authenticate (a key revoked)
 * increments in its own transaction. Processes cache API keys and drop the cache when the
 * version moves, so a revocation by any process holds at once everywhere without a key lookup
 * per request.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('auth_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_changes').values({ id: 1, version: 0 }).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('auth_changes').execute();
}
