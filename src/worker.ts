import { pino } from 'pino';
import type { Config } from './config.ts';
import { openDatabase, timeoutsOf } from './db/database.ts';
import { prepareDatabase } from './db/prepare.ts';
import { systemClock } from './lib/clock.ts';
import { releaseMemoryWhenIdle } from './lib/idle-memory.ts';
import { Dispatcher } from './modules/webhooks/dispatcher.ts';
import { startRetention } from './modules/webhooks/retention.ts';

/**
 * `custops worker`: the webhook dispatcher alone, for scaled deployments. Any number of workers
 * (and `serve` processes) share one PostgreSQL: claims use FOR UPDATE SKIP LOCKED, and NOTIFY wakes
 * them when events commit. SIGTERM stops claiming, finishes the attempts in flight, then exits.
 */
export async function runWorker(
  settings: Config,
  waitForSignal: (stop: () => Promise<void>) => Promise<void>,
  options: { migrate?: boolean } = {},
): Promise<void> {
  // The same logger as `serve` (Fastify's pino), at LOG_LEVEL, one JSON line per entry on stdout.
  const log = pino({ level: settings.logLevel });
  const database = openDatabase(settings.databaseUrl, {
    ...timeoutsOf(settings),
    poolSize: settings.pgPoolSize,
    sqliteCheckpointer: settings.sqliteCheckpointThread,
  });
  database.status.attachLog(log);
  let config: Config;
  try {
    config = await prepareDatabase(database, settings, systemClock, options);
  } catch (err) {
    await database.close();
    throw err;
  }
  const dispatcher = new Dispatcher({
    database,
    config,
    log,
  });
  await dispatcher.start();
  // Beside the dispatcher, as in `serve`: the webhook history past CUSTOPS_WEBHOOK_RETENTION_DAYS.
  const retention = startRetention({ database, config, clock: systemClock, log });
  // As in `serve`: the heap grown for a burst of deliveries is handed back once the process goes quiet.
  const idleMemory = releaseMemoryWhenIdle({ everyMs: config.idleReleaseSeconds * 1000, log });
  // Signal handlers do not hold the event loop open, and the dispatcher's timers are unref'd.
  const keepAlive = setInterval(() => {}, 3_600_000);
  log.info({ pid: process.pid, dialect: database.dialect }, 'custops worker started');
  await waitForSignal(async () => {
    clearInterval(keepAlive);
    idleMemory?.stop();
    await retention.stop();
    await dispatcher.stop();
    await database.close();
    log.info({ pid: process.pid }, 'custops worker stopped');
  });
}
