import type { Executor } from '../../db/database.ts';
import type { EventEntities, EventType } from './catalog.ts';
export declare const MAX_PAYLOAD_BYTES: number;
export declare function newEventId(): string;
export interface EmittedEvent {
    id: number;
    public_id: string;
}
/**
 * Writes one event into the outbox. Call it with the transaction that makes the change, so a
 * committed change always has its events and a rolled-back one never does. The payload is
 * serialized here, once: the dispatcher sends and signs these exact bytes.
 */
export declare function emitEvent<T extends EventType>(trx: Executor, input: {
    accountId: number;
    orgId: number;
    type: T;
    entity: EventEntities[T];
    now: number;
}): Promise<EmittedEvent>;
/** The PostgreSQL channel dispatchers LISTEN on. */
export declare const OUTBOX_CHANNEL = "custops_outbox";
/**
 * On PostgreSQL, a NOTIFY inside the transaction: delivered to every listening dispatcher (any
 * process) when it commits, never when it rolls back. Several in one transaction fold into one.
 * SQLite has no cross-process signal: the in-process `notifyEvents()` and a short poll cover it.
 */
export declare function wakeDispatchers(trx: Executor): Promise<void>;
