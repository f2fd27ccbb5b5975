// Frozen in time: this migration never imports application code and is never edited once released.
import { SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

function idColumn(db: AnyDb, name: string) {
  const t = db.schema.createTable(name);
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : t.addColumn('id', 'bigserial', (c) => c.primaryKey());
}

/**
 * Console sign-in: server-side sessions (the token stored only as its SHA-256) and the failed
 * sign-ins that throttle an email. A webhook delivery made by a test send carries
 * `is_test`, so its attempts show the trigger `test`.
 */
export async function up(db: AnyDb): Promise<void> {
  await idColumn(db, 'console_sessions')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user_idx').on('console_sessions').columns(['user_id']).execute();

  await idColumn(db, 'sign_in_failures')
    .addColumn('email_lc', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_email_idx').on('sign_in_failures').columns(['email_lc', 'failed_at']).execute();

  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // The endpoints page's 24-hour health: an account's recent attempts without scanning older ones.
  await db.schema.createIndex('webhook_attempts_account_requested_idx').on('webhook_attempts').columns(['account_id', 'requested_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('webhook_attempts_account_requested_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('is_test').execute();
  await db.schema.dropTable('sign_in_failures').execute();
  await db.schema.dropTable('console_sessions').execute();
}
