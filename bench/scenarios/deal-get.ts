import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScratchDatabase, seedDeals, type Engine } from '../lib/deal-data.ts';
import { onEachEngine } from '../lib/engines.ts';
import { cpuMsOf, log, startPinnedServer, startServiceChild, type PinnedServer } from '../lib/processes.ts';
import { alternate, ROUNDS, type Combined } from '../lib/rounds.ts';
import type { BenchOptions } from '../lib/types.ts';

export const name = 'deal-get';
export const description =
  'GET /api/v1/deals/{id} (auth, rate limit, scope, one deal read, serialization) against a bare Fastify answering the same bytes ' +
  'with no auth and no database, in alternating rounds; and the service CPU per request. 20k deals; SQLite, and PostgreSQL when configured.';

const DEALS = 20_000;
const GOALS = { ratio: 0.5, cpu_us_per_request: 60 };

/**
 * `BENCH_POSTGRES_SOCKET=/var/run/postgresql`: the servers under test reach PostgreSQL through its Unix
 * socket in that directory (DATABASE_URL's `host=` parameter, as libpq reads it) instead of TCP.
 */
export function databaseUrlFor(db: { engine: Engine; url: string }): string {
  const socket = process.env.BENCH_POSTGRES_SOCKET;
  if (db.engine !== 'postgres' || !socket) return db.url;
  return `${db.url}${db.url.includes('?') ? '&' : '?'}host=${encodeURIComponent(socket)}`;
}

const answered = (f: Combined) => [f.statuses, f.warmup_statuses].flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0);

async function runEngine(engine: Engine, options: BenchOptions) {
  const db = await createScratchDatabase(engine);
  const servers: PinnedServer[] = [];
  try {
    const seed = await seedDeals(db.handle, { deals: DEALS, activities: DEALS });
    const api = await startServiceChild({
      DATABASE_URL: databaseUrlFor(db),
      CUSTOPS_DATA_DIR: db.dir,
    });
    servers.push(api);
    const path = `/api/v1/deals/${seed.dealId}`;
    const headers = { authorization: `Bearer ${seed.key}` };
    const res = await fetch(api.url + path, { headers });
    const body = await res.text();
    if (res.status !== 200 || (JSON.parse(body) as { id: number }).id !== seed.dealId) throw new Error(`API answered ${res.status}: ${body}`);
    const bodyFile = join(db.dir, 'deal.json');
    writeFileSync(bodyFile, body);
    const bare = await startPinnedServer('bench/lib/baseline-child.ts', { BENCH_BODY_FILE: bodyFile, BENCH_PATH: path });
    servers.push(bare);
    if ((await (await fetch(bare.url + path)).text()) !== body) throw new Error('the baseline does not answer the same body');
    const cpuBefore = cpuMsOf(api.pid);
    const [app, base] = await alternate({ url: api.url + path, headers }, { url: bare.url + path, headers: {} }, options, (round) =>
      log(`${name}: ${engine}: round ${round}/${ROUNDS}: the API, then bare Fastify`),
    );
    const cpuAfter = cpuMsOf(api.pid);
    if (app.non_2xx + base.non_2xx + app.errors + base.errors > 0)
      throw new Error(`failed requests: ${JSON.stringify({ app: app.statuses, base: base.statuses })}`);
    const ratio = Math.round((app.req_per_s / base.req_per_s) * 1000) / 1000;
    const cpuUs = cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) * 1000) / answered(app));
    const figures = {
      scenario: name,
      engine,
      deals: DEALS,
      ...(databaseUrlFor(db) !== db.url ? { database_socket: process.env.BENCH_POSTGRES_SOCKET } : {}),
      connections: options.connections,
      duration_s: options.durationSeconds,
      response_bytes: Buffer.byteLength(body),
      req_per_s: app.req_per_s,
      p50_ms: app.p50_ms,
      p99_ms: app.p99_ms,
      rounds_req_per_s: app.rounds,
      baseline: { req_per_s: base.req_per_s, p50_ms: base.p50_ms, p99_ms: base.p99_ms, rounds_req_per_s: base.rounds },
      ratio,
      ratio_rounds: app.rounds.map((n, i) => Math.round((n / base.rounds[i]) * 1000) / 1000),
      // CPU of the service process (user + system) per answered request, warm-up included.
      cpu_us_per_request: cpuUs,
      goals: GOALS,
    };
    if (ratio < GOALS.ratio) log(`GOAL MISSED: ${engine} ratio ${ratio} (goal ${GOALS.ratio})`);
    process.stdout.write(JSON.stringify(figures) + '\n');
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  }
}

/** One JSON line per engine. */
export const run = onEachEngine(name, runEngine);
