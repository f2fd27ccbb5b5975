import { randomBytes } from 'node:crypto';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { seedAccount } from '../../src/seed/seed.ts';
import { createScratchDatabase, type Engine } from '../lib/deal-data.ts';
import { log } from '../lib/processes.ts';
import { benchEngines } from '../lib/engines.ts';
import type { BenchOptions } from '../lib/types.ts';
import { concurrent, interleaved, startServer, type Timing } from '../scale/measure.ts';
import { ANALYTICS, ROUTES, sampleAccount, type AccountSample } from '../scale/routes.ts';
import { storageMb } from '../scale/sizes.ts';

export const name = 'scale';
export const description =
  'Every list and search route, writes with 32 writers and the analytics endpoints, on accounts of 10k, 100k (and 1M) deals made by custops seed, ' +
  'side by side in one database, on SQLite and PostgreSQL; single requests, p50/p99 per size and the ratio of the largest to the smallest. ' +
  'Sizes: BENCH_SCALE_SIZES (default 10000,100000; add 1000000 for the full curve); engines: BENCH_SCALE_ENGINES (default both when PostgreSQL is configured).';

const REST_MS = 15_000;
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 40);
const WRITES = Number(process.env.BENCH_SCALE_WRITES ?? 1024);

function sizes(): number[] {
  const list = (process.env.BENCH_SCALE_SIZES ?? '10000,100000').split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('BENCH_SCALE_SIZES must be a comma-separated list of deal counts');
  return list.sort((a, b) => a - b);
}

type Curve = Record<string, Timing & { req_per_s?: number }>;

async function runEngine(engine: Engine, sizeList: number[]) {
  const scratch = await createScratchDatabase(engine);
  try {
    const samples: AccountSample[] = [];
    const seeding: Record<string, number> = {};
    for (const size of sizeList) {
      const deps = { db: scratch.handle.db, clock: systemClock };
      const { account } = await createAccount(deps, { name: `Scale ${size}` });
      const key = await createApiKey(deps, { accountId: account.id, name: 'bench', scopes: ['*'], rateLimitPerMinute: 1_000_000_000 });
      const started = performance.now();
      await seedAccount(scratch.handle, systemClock, { accountId: account.id, deals: size, seed: 1, progress: (l) => log(`${engine} ${size}: ${l}`) });
      seeding[String(size)] = Math.round((performance.now() - started) / 100) / 10;
      log(`${engine}: ${size.toLocaleString('en')} deals seeded in ${seeding[String(size)]} s`);
      samples.push(await sampleAccount(scratch.handle, account.id, key.secret));
    }
    const server = await startServer({
      DATABASE_URL: scratch.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
      CUSTOPS_DATA_DIR: scratch.dir,
    });
    const routes: Record<string, Curve> = {};
    const record = (route: string, size: string, t: Curve[string]) => {
      routes[route] ??= {};
      routes[route][size] = t;
    };
    const rss: Record<string, number> = {};
    // RSS as each phase ends, and again after REST_MS without requests: a quiet server hands the heap
    // it grew for the load back (CUSTOPS_IDLE_RELEASE_S, docs/operations.md#memory), so the rested
    // figures show what the accounts' rows cost the process, not the load's garbage.
    const rested = async () => {
      await new Promise((r) => setTimeout(r, REST_MS));
      return server.rssMb();
    };
    try {
      // Memory: first the smallest account alone (every route), then everything.
      for (const route of [...ROUTES, ...ANALYTICS]) await interleaved(server.url, [{ key: samples[0].key, path: (i) => route.path(samples[0], i) }], 5);
      rss.smallest_only = server.rssMb();
      rss.smallest_only_rested = await rested();
      for (const route of [...ROUTES, ...ANALYTICS]) {
        const times = await interleaved(
          server.url,
          samples.map((s) => ({ key: s.key, path: (i: number) => route.path(s, i) })),
          route.name.startsWith('GET /analytics') ? 10 : REQUESTS,
        );
        for (const [k, t] of times.entries()) record(route.name, String(sizeList[k]), t);
      }
      rss.after_reads = server.rssMb();
      rss.after_reads_rested = await rested();
      // Writes: each size in four rounds, taking turns, so both see the same machine.
      const statuses = ['qualified', 'proposal', 'negotiation', 'won', 'lost', 'new'];
      const writes = {
        'POST /deals/{id}/activities (32 writers)': (s: AccountSample, i: number) => ({
          method: 'POST',
          path: `/deals/${s.dealIds[(i * 31) % s.dealIds.length]}/activities`,
          body: { source_app: 'bench', message: `Scale note ${i}`, activity_kind: 'call' },
        }),
        'PATCH /deals/{id} status (32 writers)': (s: AccountSample, i: number) => ({
          method: 'PATCH',
          path: `/deals/${s.dealIds[(i * 31 + 7) % s.dealIds.length]}`,
          body: { status: statuses[i % statuses.length] },
        }),
      };
      for (const [label, request] of Object.entries(writes)) {
        // A warm-up of 32 writes per account, not recorded: the first writes of a fresh process pay for
        // its caches, its prepared statements and (SQLite) the start of its checkpoint thread, and
        // whichever account went first paid for them alone.
        for (const s of samples) await concurrent(server.url, s.key, 32, 32, (i) => request(s, i + 4 * WRITES));
        const rounds: Record<string, { p50_ms: number; p99_ms: number; req_per_s: number }[]> = {};
        for (let round = 0; round < 4; round++) {
          for (const [k, s] of samples.entries()) {
            const r = await concurrent(server.url, s.key, 32, WRITES / 4, (i) => request(s, i + round * WRITES));
            rounds[String(sizeList[k])] ??= [];
            rounds[String(sizeList[k])].push(r);
          }
        }
        for (const [size, list] of Object.entries(rounds)) {
          const mean = (f: (r: (typeof list)[number]) => number) => Math.round((list.reduce((a, r) => a + f(r), 0) / list.length) * 100) / 100;
          record(label, size, { p50_ms: mean((r) => r.p50_ms), p99_ms: mean((r) => r.p99_ms), req_per_s: mean((r) => r.req_per_s) });
        }
      }
      rss.after_writes = server.rssMb();
      rss.after_writes_rested = await rested();
      log(
        `${engine}: measured, server RSS ${rss.after_reads} MB after reads, ${rss.after_writes} MB after writes ` +
          `(rested: ${rss.smallest_only_rested} with the smallest account alone, ${rss.after_reads_rested}, ${rss.after_writes_rested})`,
      );
    } finally {
      await server.stop();
    }
    const small = String(sizeList[0]);
    const large = String(sizeList[sizeList.length - 1]);
    const ratios = Object.fromEntries(
      Object.entries(routes).map(([route, curve]) => [route, Math.round((curve[large].p50_ms / curve[small].p50_ms) * 100) / 100]),
    );
    return { seeding_s: seeding, routes, [`p50_ratio_${large}_vs_${small}`]: ratios, server_rss_mb: rss, storage_mb: await storageMb(scratch.handle) };
  } finally {
    await scratch.drop();
  }
}

/** A plain-text table of the p50 curve, for people (stderr). */
function table(engine: string, sizeList: number[], routes: Record<string, Curve>): void {
  log(`${engine}: p50 ms (p99) per account size`);
  for (const [route, curve] of Object.entries(routes)) {
    log(`  ${route.padEnd(52)} ${sizeList.map((s) => `${curve[String(s)].p50_ms} (${curve[String(s)].p99_ms})`.padStart(16)).join('')}`);
  }
}

export async function run(options: BenchOptions): Promise<void> {
  const sizeList = sizes();
  const engines = (process.env.BENCH_SCALE_ENGINES?.split(',') as Engine[] | undefined) ?? benchEngines(options);
  const result: Record<string, unknown> = { scenario: name, sizes: sizeList, requests_per_route: REQUESTS, writes: WRITES };
  for (const engine of engines) {
    const figures = await runEngine(engine, sizeList).catch((err: Error) => {
      log(`${engine}: ${err.stack ?? err.message}`);
      throw err;
    });
    table(engine, sizeList, figures.routes);
    result[engine] = figures;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}
