// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * The deliveries list filtered by status (the console's status filter, GET
 * /webhooks/deliveries?status=…): its count and its newest-first page are one range of
 * (account_id, status, created_at, id) instead of a walk over every delivery of the account.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql.raw('create index webhook_deliveries_account_status_created_idx on webhook_deliveries (account_id, status, created_at, id)').execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql.raw('drop index webhook_deliveries_account_status_created_idx').execute(db);
}
