import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { makeTestPki, type TestPki } from '../../test/webhooks/helpers/tls.ts';
import { createScratchDatabase, postgresBaseUrl, seedDeals, type Engine, type ScratchDatabase } from '../lib/deal-data.ts';
import { cpuMsOf, log, runLoad, startPinnedServer, startServiceChild, LOAD_CORE, type PinnedServer } from '../lib/processes.ts';
import { benchEngines } from '../lib/engines.ts';
import type { BenchOptions } from '../lib/types.ts';
import { endpointRow } from '../../test/webhooks/helpers/endpoint-row.ts';

export const name = 'webhooks-mixed';
export const description =
  'Webhooks while the API is busy: `custops serve` (API and its embedded dispatcher on one core) takes a steady --rate (default 500) ' +
  'POST /deals/{id}/activities a second, each event delivered to a local HTTPS receiver; commit-to-receiver latency ' +
  'and the outbox backlog over time, on SQLite and PostgreSQL.';

const GOALS = { p50_ms: 25, p99_ms: 250 };
const BODY = JSON.stringify({ source_app: 'bench', message: 'Called the customer about the renewal', activity_kind: 'call', outcome: 'success' });

export interface Receiver {
  server: PinnedServer;
  pki: TestPki;
  stats(): Promise<{ count: number; lags: number[] }>;
  stop(): Promise<void>;
}

/** The HTTPS receiver of the webhooks scenario, on the load generator's core (it stands for a remote system). */
export async function startReceiver(): Promise<Receiver> {
  const pki = makeTestPki();
  const server = await startPinnedServer(
    'bench/scenarios/webhooks-receiver.ts',
    { BENCH_TLS_KEY: join(pki.dir, 'server.key'), BENCH_TLS_CERT: join(pki.dir, 'server.pem') },
    LOAD_CORE,
  );
  return {
    server,
    pki,
    async stats() {
      const agent = new Agent({ connect: { ca: pki.ca } });
      try {
        const res = await request(`${server.url}/__stats`, { dispatcher: agent });
        return (await res.body.json()) as { count: number; lags: number[] };
      } finally {
        await agent.close();
      }
    },
    async stop() {
      await server.stop();
      rmSync(pki.dir, { recursive: true, force: true });
    },
  };
}

/** Events not yet fanned out plus deliveries not yet recorded: what the dispatcher still owes. */
export async function backlog(db: ScratchDatabase): Promise<number> {
  const events = await db.handle.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('dispatched_at', 'is', null)
    .executeTakeFirstOrThrow();
  const due = await db.handle.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('next_attempt_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(events.n) + Number(due.n);
}

export interface ServiceUnderLoad {
  db: ScratchDatabase;
  server: PinnedServer;
  url: string;
  auth: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A scratch database with 2,000 deals, an endpoint subscribed to `deal.activity.created` at the
 * receiver, and `custops serve` on it; `settings` adds to its environment.
 */
export async function startService(engine: Engine, receiver: Receiver, settings: NodeJS.ProcessEnv = {}): Promise<ServiceUnderLoad> {
  const db = await createScratchDatabase(engine);
  try {
    const seed = await seedDeals(db.handle, { deals: 2000, activities: 10_000 });
    const secretKey = randomBytes(32);
    await db.handle.db
      .insertInto('webhook_endpoints')
      .values(endpointRow({ accountId: seed.accountId, name: 'bench', url: `${receiver.server.url}/hook`, eventTypes: ['deal.activity.created'], secretKey }))
      .execute();
    const server = await startServiceChild({
      DATABASE_URL: db.url,
      CUSTOPS_SECRET_KEY: secretKey.toString('hex'),
      CUSTOPS_DATA_DIR: db.dir,
      CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      NODE_EXTRA_CA_CERTS: receiver.pki.caFile,
      ...settings,
    });
    const auth = { authorization: `Bearer ${seed.key}`, 'content-type': 'application/json' };
    const url = `${server.url}/api/v1/deals/${seed.dealId}/activities`;
    const first = await fetch(url, { method: 'POST', headers: auth, body: BODY });
    if (first.status !== 201) throw new Error(`API answered ${first.status}: ${await first.text()}`);
    return {
      db,
      server,
      url,
      auth,
      async stop() {
        await server.stop();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

export const createBody = BODY;

export async function waitForBacklog(db: ScratchDatabase, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while ((await backlog(db)) > 0) {
    if (Date.now() - started > timeoutMs) return -1;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10 : 0;
}

async function runEngine(engine: Engine, receiver: Receiver, options: BenchOptions) {
  const service = await startService(engine, receiver);
  try {
    await waitForBacklog(service.db, 10_000);
    await receiver.stats();
    // The backlog once a second while the load runs: a steady service keeps it flat.
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await backlog(service.db));
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const cpuBefore = cpuMsOf(service.server.pid);
    const load = await runLoad({
      url: service.url,
      method: 'POST',
      body: BODY,
      headers: service.auth,
      connections: 16,
      overallRate: options.rate,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
    });
    sampling = false;
    await sampler;
    const drainMs = await waitForBacklog(service.db, 60_000);
    const cpuAfter = cpuMsOf(service.server.pid);
    const { count, lags } = await receiver.stats();
    const sorted = lags.sort((a, b) => a - b);
    const half = Math.floor(samples.length / 2);
    const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
    const created = (load.statuses['201'] ?? 0) + (load.warmup_statuses['201'] ?? 0);
    return {
      engine,
      rate_asked: options.rate,
      creates_per_s: load.req_per_s,
      create_p50_ms: load.p50_ms,
      create_p99_ms: load.p99_ms,
      created,
      non_201: load.non_2xx,
      delivered: count,
      commit_to_receiver_p50_ms: percentile(sorted, 50),
      commit_to_receiver_p99_ms: percentile(sorted, 99),
      backlog_first_half_mean: mean(samples.slice(0, half)),
      backlog_second_half_mean: mean(samples.slice(half)),
      backlog_max: Math.max(0, ...samples),
      drain_after_load_ms: drainMs,
      // The serve process's CPU (API and dispatcher) per create and its delivery: contention on a shared machine stretches latency, not this.
      server_cpu_us_per_create: cpuBefore === null || cpuAfter === null || created === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1000) / created),
    };
  } finally {
    await service.stop();
  }
}

/**
 * Runs `once` on each engine (PostgreSQL when a server is configured) against one receiver, and
 * prints each result as the scenario's JSON line with its goals.
 */
export async function runOnEngines<R extends object>(
  scenario: string,
  goals: object,
  options: BenchOptions,
  once: (engine: Engine, receiver: Receiver) => Promise<R>,
): Promise<void> {
  const receiver = await startReceiver();
  try {
    const engines = benchEngines(options);
    if (options.engine !== 'sqlite' && !postgresBaseUrl()) log(`${scenario}: postgres skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)`);
    for (const engine of engines) {
      const r = await once(engine, receiver);
      process.stdout.write(JSON.stringify({ scenario, ...r, goals }) + '\n');
    }
  } finally {
    await receiver.stop();
  }
}

export async function run(options: BenchOptions): Promise<void> {
  await runOnEngines(name, GOALS, options, async (engine, receiver) => {
    log(`${name}: ${engine}: ${options.rate} creates/s for ${options.durationSeconds} s after ${options.warmupSeconds} s of warm-up`);
    const r = await runEngine(engine, receiver, options);
    const met = r.commit_to_receiver_p50_ms < GOALS.p50_ms && r.commit_to_receiver_p99_ms < GOALS.p99_ms && r.drain_after_load_ms >= 0;
    if (!met)
      log(
        `GOAL MISSED: ${engine} commit-to-receiver p50 ${r.commit_to_receiver_p50_ms} ms, p99 ${r.commit_to_receiver_p99_ms} ms (goals ${GOALS.p50_ms} / ${GOALS.p99_ms})`,
      );
    return r;
  });
}
