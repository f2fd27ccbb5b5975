import { randomBytes } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
export const MAX_PAYLOAD_BYTES = 256 * 1024;
export function newEventId() {
    return 'evt_' + randomBytes(16).toString('base64url');
}
/**
 * Writes one event into the outbox. Call it with the transaction that makes the change, so a
 * committed change always has its events and a rolled-back one never does. The payload is
 * serialized here, once: the dispatcher sends and signs these exact bytes.
 */
export async function emitEvent(trx, input) {
    const publicId = newEventId();
    const payload = JSON.stringify({
        id: publicId,
        event_type: input.type,
        org_id: input.orgId,
        timestamp: new Date(input.now).toISOString(),
        ...input.entity,
    });
    // Field limits keep every payload under 256 KiB; past it is a defect, not bad input.
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
        throw new Error(`${input.type} payload is ${Buffer.byteLength(payload)} bytes, over 256 KiB`);
    const row = await trx
        .insertInto('events')
        .values({ account_id: input.accountId, public_id: publicId, event_type: input.type, org_id: input.orgId, payload, created_at: input.now, dispatched_at: null })
        .returning(['id'])
        .executeTakeFirstOrThrow();
    await wakeDispatchers(trx);
    return { id: row.id, public_id: publicId };
}
/** The PostgreSQL channel dispatchers LISTEN on. */
export const OUTBOX_CHANNEL = 'custops_outbox';
/**
 * On PostgreSQL, a NOTIFY inside the transaction: delivered to every listening dispatcher (any
 * process) when it commits, never when it rolls back. Several in one transaction fold into one.
 * SQLite has no cross-process signal: the in-process `notifyEvents()` and a short poll cover it.
 */
export async function wakeDispatchers(trx) {
    if (trx.getExecutor().adapter instanceof PostgresAdapter)
        await sql `select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(trx);
}
