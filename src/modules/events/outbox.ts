import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import type { EventEntities, EventType } from './catalog.ts';

export const MAX_PAYLOAD_BYTES = 256 * 1024;

export function newEventId(): string {
  return 'evt_' + randomBytes(16).toString('base64url');
}

export interface EmittedEvent {
  id: number;
  public_id: string;
}

/**
 * Writes one event into the outbox. Call it with the transaction that makes the change, so a
 * committed change always has its events and a rolled-back one never does. The payload is
 * serialized here, once: the dispatcher sends and signs these exact bytes.
 */
export async function emitEvent<T extends EventType>(
  trx: Executor,
  input: { accountId: number; orgId: number; type: T; entity: EventEntities[T]; now: number },
): Promise<EmittedEvent> {
  const publicId = newEventId();
  const payload = JSON.stringify({
    id: publicId,
    event_type: input.type,
    org_id: input.orgId,
    timestamp: new Date(input.now).toISOString(),
    ...input.entity,
  });
  // Field limits keep every payload under 256 KiB; past it is a defect, not bad input.
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`${input.type} payload is ${Buffer.byteLength(payload)} bytes, over 256 KiB`);
  // The insert itself wakes other processes' dispatchers at the commit (PostgreSQL NOTIFY): no round trip of its own.
  const notify = engineOf(trx).notifyOnCommit(OUTBOX_CHANNEL);
  const row = await trx
    .insertInto('events')
    .values({
      account_id: input.accountId,
      public_id: publicId,
      event_type: input.type,
      org_id: input.orgId,
      payload,
      created_at: input.now,
      dispatched_at: null,
    })
    .returning(notify ? ['id', notify.as('notified')] : ['id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, public_id: publicId };
}

/** The PostgreSQL channel dispatchers LISTEN on. */
export const OUTBOX_CHANNEL = 'custops_outbox';

/**
 * Wakes the dispatchers of other processes once `trx` commits (PostgreSQL NOTIFY; several in one
 * transaction fold into one). This process's own dispatcher is woken by the write path after the
 * commit (lib/write.ts); on SQLite, other processes' dispatchers find the work by a short poll.
 */
export async function wakeDispatchers(trx: Executor): Promise<void> {
  const notify = engineOf(trx).notifyOnCommit(OUTBOX_CHANNEL);
  if (notify) await sql`select ${notify}`.execute(trx);
}
