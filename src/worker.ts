import type { Config } from './config.ts';
import { openDatabase, timeoutsOf } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Dispatcher } from './modules/webhooks/dispatcher.ts';

function log(level: 'info' | 'warn' | 'error', obj: object, msg?: string): void {
  const err = (obj as { err?: unknown }).err;
  const line = { level, time: Date.now(), msg, ...obj, ...(err instanceof Error ? { err: { message: err.message, stack: err.stack } } : {}) };
  process.stderr.write(JSON.stringify(line) + '\n');
}

/**
 * `custops worker`: the webhook dispatcher alone, for scaled deployments. Any number of workers
 * (and `serve` processes) share one PostgreSQL: claims use FOR UPDATE SKIP LOCKED, and NOTIFY wakes
 * them when events commit. SIGTERM stops claiming, finishes the attempts in flight, then exits.
 */
export async function runWorker(config: Config, waitForSignal: (stop: () => Promise<void>) => Promise<void>): Promise<void> {
  const database = openDatabase(config.databaseUrl, timeoutsOf(config));
  database.status.attachLog({ warn: (o, m) => log('warn', o, m), info: (o, m) => log('info', o, m) });
  await migrateToLatest(database.db);
  const dispatcher = new Dispatcher({
    database,
    config,
    log: { info: (o, m) => log('info', o, m), warn: (o, m) => log('warn', o, m), error: (o, m) => log('error', o, m) },
  });
  await dispatcher.start();
  // Signal handlers do not hold the event loop open, and the dispatcher's timers are unref'd.
  const keepAlive = setInterval(() => {}, 3_600_000);
  log('info', { pid: process.pid, dialect: database.dialect }, 'custops worker started');
  await waitForSignal(async () => {
    clearInterval(keepAlive);
    await dispatcher.stop();
    await database.close();
    log('info', { pid: process.pid }, 'custops worker stopped');
  });
}
