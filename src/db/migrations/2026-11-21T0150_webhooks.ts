// Frozen in time: this migration never imports application code and is never edited once released.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * What caused a delivery's next attempt: null for the retry schedule, 'manual' after a retry or
 * recover request, so the attempt log can say which it was.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('next_trigger', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('next_trigger').execute();
}
