import type { Config } from './config.ts';
import { fillPool, openDatabase, timeoutsOf, type DatabaseHandle } from './db/database.ts';
import { prepareDatabase } from './db/prepare.ts';
import { buildApp } from './app.ts';
import { routeOf } from './http/route.ts';
import type { App } from './http/types.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { releaseMemoryWhenIdle } from './lib/idle-memory.ts';
import { purgeExpiredKeys } from './modules/idempotency/idempotency.repository.ts';
import { Dispatcher } from './modules/webhooks/dispatcher.ts';
import { startRetention } from './modules/webhooks/retention.ts';

export interface RunningServer {
  app: App;
  database: DatabaseHandle;
  url: string;
  /** Requests whose handlers are running (what `stop` waits for). */
  handlersRunning(): number;
  stop(): Promise<void>;
}

const PURGE_EVERY_MS = 15 * 60_000;
const DRAIN_TIMEOUT_MS = 15_000;

export interface ServerOptions {
  clock?: Clock;
  logger?: boolean | object;
  /** false (`serve --no-migrate`): refuse a database `custops migrate` has not brought up to date, instead of migrating it. */
  migrate?: boolean;
}

/** `custops serve`: migrate, check the secret key, listen, and run the housekeeping of one process. */
export async function startServer(settings: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const database = openDatabase(settings.databaseUrl, {
    ...timeoutsOf(settings),
    poolSize: settings.pgPoolSize,
    sqliteCheckpointer: settings.sqliteCheckpointThread,
  });
  let config: Config;
  try {
    config = await prepareDatabase(database, settings, clock, { migrate: options.migrate });
  } catch (err) {
    await database.close();
    throw err;
  }
  // The embedded webhook dispatcher: woken in-process after each commit that queued deliveries.
  let dispatcher: Dispatcher | null = null;
  const app = await buildApp(config, { database, clock, logger: options.logger, wakeDispatcher: () => dispatcher?.wake() });
  dispatcher = new Dispatcher({ database, config, clock, log: app.log });
  // Handlers still running when the server closes (a client that hung up does not stop its handler)
  // finish their database work before the pool closes: otherwise a committed write could lose its
  // idempotency record. A request counts from its last hook before the handler until its answer is
  // ready (onSend), not until the answer is delivered: a client that hung up gets no delivery, and
  // waiting for one would hold every later stop for the whole drain time-out.
  // A stream (route config `stream`) takes its reply over, so neither hook below would ever see it end:
  // it is not counted (it only reads, and closing the server ends it).
  const inFlight = new Set<object>();
  // Callback hooks: no promise per request for the bookkeeping.
  app.addHook('preHandler', (request, _reply, done) => {
    if (routeOf(request).config.stream !== true) inFlight.add(request);
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    inFlight.delete(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    inFlight.delete(request);
    done();
  });
  const purge = setInterval(() => {
    purgeExpiredKeys(database.db, clock.now()).catch((err) => app.log.warn({ err }, 'idempotency purge failed'));
  }, PURGE_EVERY_MS);
  purge.unref();
  // The first requests after a start (a deploy, a restart after a crash: retries arrive at once) find
  // the pool's connections made.
  await fillPool(database);
  await app.listen({ port: config.port, host: config.host });
  await dispatcher.start();
  // Beside the dispatcher, as in `worker`: the webhook history past CUSTOPS_WEBHOOK_RETENTION_DAYS.
  const retention = startRetention({ database, config, clock, log: app.log });
  // A process that has served a burst gives the heap it grew for it back once it goes quiet.
  const idleMemory = releaseMemoryWhenIdle({ everyMs: config.idleReleaseSeconds * 1000, log: app.log });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    app,
    database,
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    handlersRunning: () => inFlight.size,
    async stop() {
      clearInterval(purge);
      idleMemory?.stop();
      await app.close();
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      while (inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await retention.stop();
      await dispatcher.stop(); // lets the attempts in flight finish and be recorded
      await database.close();
    },
  };
}
