import { randomFillSync } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type { EventsTable } from '../../db/schema.ts';
import type { EventEntities, EventType } from './catalog.ts';

export const MAX_PAYLOAD_BYTES = 256 * 1024;

/**
 * Bytes from the system's CSPRNG, drawn 4 KiB at a time and each handed out once, as
 * `crypto.randomUUID` pools its own: a `randomBytes(16)` per event cost 5–6 µs of every write with
 * events, the pool about 0.1 µs (its format, 128 random bits, is not a UUID's 122).
 */
const idBytes = Buffer.allocUnsafe(4096);
let idBytesUsed = idBytes.length;

/** `evt_` and 16 random bytes in base64url (22 characters). */
export function newEventId(): string {
  if (idBytesUsed === idBytes.length) {
    randomFillSync(idBytes);
    idBytesUsed = 0;
  }
  const id = 'evt_' + idBytes.toString('base64url', idBytesUsed, idBytesUsed + 16);
  idBytesUsed += 16;
  return id;
}

export interface EmittedEvent {
  id: number;
  public_id: string;
}

/** An event serialized for the outbox, not yet written. */
export type OutboxRow = Insertable<EventsTable>;

/**
 * One event as its outbox row: the payload is serialized here, once, and the dispatcher sends and
 * signs these exact bytes.
 */
export function outboxRow<T extends EventType>(input: { accountId: number; orgId: number; type: T; entity: EventEntities[T]; now: number }): OutboxRow {
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
  return {
    account_id: input.accountId,
    public_id: publicId,
    event_type: input.type,
    org_id: input.orgId,
    payload,
    created_at: input.now,
    dispatched_at: null,
  };
}

/**
 * The insert of `rows` into the outbox, in their order, returning their ids; not yet run, so a
 * caller may run it alone or as part of another statement (lib/write.ts stores a response with
 * it). On PostgreSQL the insert itself wakes other processes' dispatchers at the commit (NOTIFY):
 * no round trip of its own.
 */
export function insertEvents(db: Executor, rows: OutboxRow[]) {
  const notify = engineOf(db).notifyOnCommit(OUTBOX_CHANNEL);
  return db
    .insertInto('events')
    .values(rows)
    .returning(notify ? ['id', notify.as('notified')] : ['id']);
}

/** One event's insert, built and compiled once: most writes emit exactly one (docs/design.md#prepared-queries). */
const insertOneEvent = prepareQuery((db, account_id: number, public_id: string, event_type: string, org_id: number, payload: string, created_at: number) =>
  insertEvents(db, [{ account_id, public_id, event_type, org_id, payload, created_at, dispatched_at: null }]),
);

/**
 * Runs the insert of `rows` into the outbox as a statement of its own (where it does not go with
 * the stored response: SQLite), through the prepared statement when there is one row.
 */
export async function writeEvents(db: Executor, rows: OutboxRow[]): Promise<void> {
  if (rows.length !== 1) {
    await insertEvents(db, rows).execute();
    return;
  }
  const [r] = rows;
  await insertOneEvent.rows(db, r.account_id, r.public_id, r.event_type, r.org_id, r.payload, r.created_at);
}

/**
 * Writes one event into the outbox. Call it with the transaction that makes the change, so a
 * committed change always has its events and a rolled-back one never does. Writes through
 * lib/write.ts gather theirs and write them with the response they store instead (`WriteContext.emit`).
 */
export async function emitEvent<T extends EventType>(
  trx: Executor,
  input: { accountId: number; orgId: number; type: T; entity: EventEntities[T]; now: number },
): Promise<EmittedEvent> {
  const row = outboxRow(input);
  const inserted = await insertEvents(trx, [row]).executeTakeFirstOrThrow();
  return { id: inserted.id, public_id: row.public_id };
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
