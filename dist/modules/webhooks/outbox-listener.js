import { OUTBOX_CHANNEL } from '../events/outbox.js';
/**
 * PostgreSQL LISTEN on the outbox channel over one pooled connection: `onNotify` runs when any
 * process commits events. A lost connection is re-established after a second.
 */
export function listenToOutbox(pool, onNotify, log) {
    let client = null;
    let closed = false;
    const retry = () => {
        if (!closed)
            setTimeout(() => void connect(), 1000).unref();
    };
    const connect = async () => {
        try {
            const c = await pool.connect();
            c.on('notification', onNotify);
            c.on('error', (err) => {
                log?.warn({ err }, 'webhook dispatcher lost its LISTEN connection; reconnecting');
                c.release(err);
                client = null;
                retry();
            });
            await c.query(`listen ${OUTBOX_CHANNEL}`);
            if (closed) {
                c.release();
                return;
            }
            client = c;
            onNotify(); // events committed while not listening
        }
        catch (err) {
            log?.warn({ err }, 'webhook dispatcher could not LISTEN; polling only');
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
                await c.query(`unlisten ${OUTBOX_CHANNEL}`).catch(() => { });
                c.release();
            }
        },
    };
}
