// Frozen in time: this migration never imports application code and is never edited once released.
import type { Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * SHA-256 of the method, path and body bytes of the request a key first answered: a retry sending
 * the very same bytes is replayed before its body is decoded (docs/design.md#request-pipeline).
 * Null for records stored before; their retries are compared by the canonical fingerprint alone.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('request_bytes_hash', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('request_bytes_hash').execute();
}
