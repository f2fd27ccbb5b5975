import type pg from 'pg';
export interface OutboxListener {
    /** Whether a LISTEN connection is up (the poll can then be slower). */
    connected(): boolean;
    close(): Promise<void>;
}
/**
 * PostgreSQL LISTEN on the outbox channel over one pooled connection: `onNotify` runs when any
 * process commits events. A lost connection is re-established after a second.
 */
export declare function listenToOutbox(pool: pg.Pool, onNotify: () => void, log?: {
    warn(obj: object, msg?: string): void;
    info?(obj: object, msg?: string): void;
}): OutboxListener;
