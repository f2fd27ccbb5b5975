import { openDatabase, timeoutsOf } from './db/database.js';
import { prepareDatabase } from './db/prepare.js';
import { buildApp } from './app.js';
import { systemClock } from './lib/clock.js';
import { purgeExpiredKeys } from './modules/idempotency/idempotency.repository.js';
import { Dispatcher } from './modules/webhooks/dispatcher.js';
const PURGE_EVERY_MS = 15 * 60_000;
const DRAIN_TIMEOUT_MS = 15_000;
/** `custops serve`: migrate, check the secret key, listen, and run the housekeeping of one process. */
export async function startServer(settings, options = {}) {
    const clock = options.clock ?? systemClock;
    const database = openDatabase(settings.databaseUrl, { ...timeoutsOf(settings), poolSize: settings.pgPoolSize });
    let config;
    try {
        config = await prepareDatabase(database, settings, clock, { migrate: options.migrate });
    }
    catch (err) {
        await database.close();
        throw err;
    }
    // The embedded webhook dispatcher: woken in-process after each commit that wrote events.
    let dispatcher = null;
    const app = await buildApp(config, { database, clock, logger: options.logger, notifyEvents: () => dispatcher?.wake() });
    dispatcher = new Dispatcher({ database, config, clock, log: app.log });
    // Requests still running when the server closes (a client that hung up does not stop its handler)
    // finish their database work before the pool closes: otherwise a committed write could lose its
    // idempotency record.
    const inFlight = new Set();
    app.addHook('onRequest', async (request) => {
        inFlight.add(request);
    });
    app.addHook('onResponse', async (request) => {
        inFlight.delete(request);
    });
    const purge = setInterval(() => {
        purgeExpiredKeys(database.db, clock.now()).catch((err) => app.log.warn({ err }, 'idempotency purge failed'));
    }, PURGE_EVERY_MS);
    purge.unref();
    await app.listen({ port: config.port, host: config.host });
    await dispatcher.start();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
        app,
        database,
        url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
        async stop() {
            clearInterval(purge);
            await app.close();
            const deadline = Date.now() + DRAIN_TIMEOUT_MS;
            while (inFlight.size > 0 && Date.now() < deadline)
                await new Promise((r) => setTimeout(r, 20));
            await dispatcher.stop(); // lets the attempts in flight finish and be recorded
            await database.close();
        },
    };
}
