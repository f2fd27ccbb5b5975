// Frozen in time: this migration never imports application code and is never edited once released.
import { sql } from 'kysely';
/**
 * `next_trigger`: what caused a delivery's next attempt (null for the retry schedule, 'manual'
 * after a retry or recover request), so the attempt log can say which it was.
 * `webhook_deliveries_endpoint_due_idx`: the due work of one endpoint, oldest first, so the
 * dispatcher can serve the other endpoints while one is at its concurrency cap without scanning
 * that endpoint's backlog.
 */
export async function up(db) {
    await db.schema.alterTable('webhook_deliveries').addColumn('next_trigger', 'text').execute();
    await db.schema
        .createIndex('webhook_deliveries_endpoint_due_idx')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'next_attempt_at'])
        .where(sql.ref('next_attempt_at'), 'is not', null)
        .execute();
}
export async function down(db) {
    await db.schema.dropIndex('webhook_deliveries_endpoint_due_idx').execute();
    await db.schema.alterTable('webhook_deliveries').dropColumn('next_trigger').execute();
}
