import type pg from 'pg';
import { OUTBOX_CHANNEL } from '../events/outbox.ts';

export interface OutboxListener {
  /** Whether a LISTEN connection is up (the poll can then be slower). */
  connected(): boolean;
  close(): Promise<void>;
}

/**
 * PostgreSQL LISTEN on the outbox channel over one pooled connection: `onNotify` runs when any
 * process commits events. A lost connection is re-established after a second.
 */
export function listenToOutbox(
  pool: pg.Pool,
  onNotify: () => void,
  log?: { warn(obj: object, msg?: string): void; info?(obj: object, msg?: string): void },
): OutboxListener {
  let client: pg.PoolClient | null = null;
  let closed = false;
  // One warning per lost connection, not one per failed reconnect (once a second through an outage).
  let warned = false;
  const retry = () => {
    if (!closed) setTimeout(() => void connect(), 1000).unref();
  };
  const connect = async () => {
    let c: pg.PoolClient | null = null;
    let released = false;
    // A broken connection may report more than one error; the pool takes a client back only once.
    const drop = (err: Error) => {
      if (released || !c) return;
      released = true;
      c.release(err);
    };
    try {
      c = await pool.connect();
      const own = c;
      own.on('notification', onNotify);
      own.on('error', (err) => {
        if (!warned) log?.warn({ err }, 'webhook dispatcher lost its LISTEN connection; reconnecting');
        warned = true;
        drop(err);
        // Only an established listener reconnects from here; a failure while setting up is the catch's to retry.
        if (client === own) {
          client = null;
          retry();
        }
      });
      await own.query(`listen ${OUTBOX_CHANNEL}`);
      if (closed) {
        released = true;
        own.release();
        return;
      }
      client = own;
      if (warned) log?.info?.({}, 'webhook dispatcher listening again');
      warned = false;
      onNotify(); // events committed while not listening
    } catch (err) {
      if (!warned) log?.warn({ err }, 'webhook dispatcher could not LISTEN; polling until it can');
      warned = true;
      drop(err as Error);
      retry();
    }
  };
  const ready = connect();
  return {
    connected: () => client !== null,
    async close() {
      closed = true;
      await ready;
      const c = client;
      client = null;
      if (c) {
        await c.query(`unlisten ${OUTBOX_CHANNEL}`).catch(() => {});
        c.removeAllListeners('notification');
        c.removeAllListeners('error');
        c.release();
      }
    },
  };
}
