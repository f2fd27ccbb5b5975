import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from '../../test/faults/helpers/instances.ts';
import { bearer, request, startServe, steadyLoad, type Answer } from '../../test/faults/helpers/load.ts';
import type { Child } from '../../test/webhooks/helpers/processes.ts';
import { log } from '../lib/processes.ts';
import type { BenchOptions } from '../lib/types.ts';

export const name = 'faults';
export const description =
  'Dependency faults under steady load (8 concurrent writers of POST /deals/{id}/activities through custops serve, with Redis): ' +
  'a database outage (PostgreSQL stopped with -m immediate for 2 s and started; on SQLite another process holding the write lock ' +
  'for 2 s) and a Redis outage (hung 2 s with SIGSTOP, killed, restarted after 1 s), on SQLite and PostgreSQL: requests failed, ' +
  'slowest answer, and time to recover after the dependency returns; baseline: the same load before the faults.';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WRITERS = 8;

interface FaultFigures {
  requests: number;
  failed: number;
  statuses: Record<string, number>;
  slowest_ms: number;
  /** From the dependency being back to the first request that succeeded after it. */
  recover_ms: number;
  /** Throughput in the 2 s after recovery over the baseline. */
  after_ratio: number;
}

function throughput(answers: Answer[], from: number, to: number): number {
  const done = answers.filter((a) => a.sentAt + a.ms >= from && a.sentAt + a.ms < to && a.status >= 200 && a.status < 300);
  return done.length / ((to - from) / 1000);
}

function figures(answers: Answer[], faultAt: number, backAt: number, baseline: number): FaultFigures {
  const window = answers.filter((a) => a.sentAt + a.ms >= faultAt && a.sentAt < backAt + 2000);
  const statuses: Record<string, number> = {};
  for (const a of window) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const firstOk = answers.filter((a) => a.sentAt >= backAt && a.status === 201).map((a) => a.sentAt + a.ms);
  return {
    requests: window.length,
    failed: window.filter((a) => a.status !== 201).length,
    statuses,
    slowest_ms: Math.max(0, ...window.map((a) => a.ms)),
    recover_ms: firstOk.length ? Math.min(...firstOk) - backAt : -1,
    after_ratio: Number((throughput(answers, backAt, backAt + 2000) / baseline).toFixed(2)),
  };
}

async function runEngine(engine: 'sqlite' | 'postgres', redis: OwnRedis, pg: OwnPostgres | null): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `custops-bench-faults-${engine}-`));
  const databaseUrl = engine === 'sqlite' ? `sqlite:${join(dir, 'bench.db')}` : pg!.url;
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  await migrateToLatest(database.db);
  const deps = { db: database.db, clock: systemClock };
  const { account } = await createAccount(deps, { name: `Faults ${engine} ${Date.now()}` });
  const key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 1_000_000 })).secret;
  await database.close();
  const children: Child[] = [];
  try {
    const { url } = await startServe(
      { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, CUSTOPS_SECRET_KEY: 'a'.repeat(64), CUSTOPS_DATA_DIR: dir, LOG_LEVEL: 'warn' },
      children,
    );
    const post = (path: string, body: unknown) => request(`${url}/api/v1${path}`, { method: 'POST', headers: bearer(key), body: JSON.stringify(body) });
    const org = await post('/orgs', { name: 'Faults' });
    const deal = await post('/deals', { org_id: org.body.id, title: 'Under faults' });
    const load = steadyLoad(WRITERS, (i) => post(`/deals/${deal.body.id}/activities`, { source_app: 'bench', message: `note ${i}` }));
    const started = Date.now();
    await sleep(4000);
    const baseline = throughput(load.answers, started + 1000, Date.now());

    log(`faults [${engine}]: database outage`);
    const dbFaultAt = Date.now();
    let dbBackAt: number;
    if (engine === 'postgres') {
      await pg!.stopImmediately();
      await sleep(2000);
      await pg!.start();
      dbBackAt = Date.now();
    } else {
      const other = new DatabaseSync(join(dir, 'bench.db'));
      other.exec('BEGIN IMMEDIATE');
      await sleep(2000);
      other.exec('ROLLBACK');
      other.close();
      dbBackAt = Date.now();
    }
    await sleep(4000);

    log(`faults [${engine}]: Redis outage`);
    const redisFaultAt = Date.now();
    redis.hang();
    await sleep(2000);
    await redis.kill();
    await sleep(1000);
    await redis.start();
    const redisBackAt = Date.now();
    let redisResumedMs = -1;
    for (let i = 0; i < 100; i++) {
      const ready = await request(`${url}/readyz`);
      if (ready.body?.checks?.rate_limit === 'redis') {
        redisResumedMs = Date.now() - redisBackAt;
        break;
      }
      await sleep(50);
    }
    await sleep(3000);
    await load.stop();
    return {
      baseline_req_per_s: Math.round(baseline),
      database_outage: {
        kind: engine === 'postgres' ? 'pg_ctl stop -m immediate, 2 s, start' : 'write lock held by another process for 2 s',
        ...figures(load.answers, dbFaultAt, dbBackAt, baseline),
      },
      redis_outage: { ...figures(load.answers, redisFaultAt, redisBackAt, baseline), redis_in_use_again_ms: redisResumedMs },
    };
  } finally {
    for (const c of children) {
      c.proc.kill('SIGTERM');
      await c.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(_options: BenchOptions): Promise<void> {
  const redis = await startOwnRedis();
  let pg: OwnPostgres | null = null;
  const result: Record<string, unknown> = { scenario: name };
  try {
    result.sqlite = await runEngine('sqlite', redis, null);
    try {
      pg = await startOwnPostgres();
    } catch (err) {
      log(`faults: no PostgreSQL of its own (${(err as Error).message.split('\n')[0]}); SQLite only`);
    }
    if (pg) result.postgres = await runEngine('postgres', redis, pg);
  } finally {
    await redis.destroy();
    await pg?.destroy();
  }
  // The baseline is each engine's own steady load before the faults; the ratio is throughput in the
  // 2 s after the database returned over it (1.0: fully recovered at once).
  const engines = ['sqlite', 'postgres'].filter((e) => result[e]) as ('sqlite' | 'postgres')[];
  result.baseline = Object.fromEntries(engines.map((e) => [e, { req_per_s: (result[e] as { baseline_req_per_s: number }).baseline_req_per_s }]));
  result.ratio = Object.fromEntries(engines.map((e) => [e, (result[e] as { database_outage: FaultFigures }).database_outage.after_ratio]));
  process.stdout.write(JSON.stringify(result) + '\n');
}
