import { openDatabase, timeoutsOf } from './db/database.js';
import { prepareDatabase } from './db/prepare.js';
import { systemClock } from './lib/clock.js';
import { Dispatcher } from './modules/webhooks/dispatcher.js';
function log(level, obj, msg) {
    const err = obj.err;
    const line = { level, time: Date.now(), msg, ...obj, ...(err instanceof Error ? { err: { message: err.message, stack: err.stack } } : {}) };
    process.stderr.write(JSON.stringify(line) + '\n');
}
/**
 * `custops worker`: the webhook dispatcher alone, for scaled deployments. Any number of workers
 * (and `serve` processes) share one PostgreSQL: claims use FOR UPDATE SKIP LOCKED, and NOTIFY wakes
 * them when events commit. SIGTERM stops claiming, finishes the attempts in flight, then exits.
 */
export async function runWorker(settings, waitForSignal, options = {}) {
    const database = openDatabase(settings.databaseUrl, { ...timeoutsOf(settings), poolSize: settings.pgPoolSize });
    database.status.attachLog({ warn: (o, m) => log('warn', o, m), info: (o, m) => log('info', o, m) });
    let config;
    try {
        config = await prepareDatabase(database, settings, systemClock, options);
    }
    catch (err) {
        await database.close();
        throw err;
    }
    const dispatcher = new Dispatcher({
        database,
        config,
        log: { info: (o, m) => log('info', o, m), warn: (o, m) => log('warn', o, m), error: (o, m) => log('error', o, m) },
    });
    await dispatcher.start();
    // Signal handlers do not hold the event loop open, and the dispatcher's timers are unref'd.
    const keepAlive = setInterval(() => { }, 3_600_000);
    log('info', { pid: process.pid, dialect: database.dialect }, 'custops worker started');
    await waitForSignal(async () => {
        clearInterval(keepAlive);
        await dispatcher.stop();
        await database.close();
        log('info', { pid: process.pid }, 'custops worker stopped');
    });
}
