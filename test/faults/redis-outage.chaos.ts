import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { waitUntil, type Child } from '../webhooks/helpers/processes.ts';
import { startOwnRedis, type OwnRedis } from './helpers/instances.ts';
import { alive, bearer, logLines, request, startServe, type Answer } from './helpers/load.ts';

// The default budget is 50 ms; twice that here, because this machine runs many suites at once.
const BUDGET_MS = 100;
const TOKEN = 'chaos-metrics-token-0123456789';

describe('Redis hung (SIGSTOP) and killed under two serve processes', () => {
  let redis: OwnRedis;
  const children: Child[] = [];
  let a: { url: string; child: Child };
  let b: { url: string; child: Child };
  const keys: Record<string, string> = {};

  before(async () => {
    redis = await startOwnRedis();
    const dir = mkdtempSync(join(tmpdir(), 'custops-redis-chaos-'));
    const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
    const database = openDatabase(databaseUrl);
    await migrateToLatest(database.db);
    const deps = { db: database.db, clock: systemClock };
    const { account } = await createAccount(deps, { name: 'Redis chaos' });
    for (const [name, limit] of [
      ['load', 100_000],
      ['perProcess', 10],
      ['shared', 5],
    ] as const) {
      keys[name] = (await createApiKey(deps, { accountId: account.id, name, scopes: ['*'], rateLimitPerMinute: limit })).secret;
    }
    await database.close();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      CUSTOPS_REDIS_TIMEOUT_MS: String(BUDGET_MS),
      CUSTOPS_DATA_DIR: dir,
      CUSTOPS_METRICS_TOKEN: TOKEN,
      LOG_LEVEL: 'info',
    };
    [a, b] = await Promise.all([startServe(env, children), startServe(env, children)]);
  });

  after(async () => {
    for (const c of children) if (alive(c)) c.proc.kill('SIGKILL');
    await redis.destroy();
  });

  const list = (url: string, key: string) => request(`${url}/api/v1/orgs?per_page=1`, { headers: bearer(key) });
  const ready = async (url: string) => (await request(`${url}/readyz`)).body;
  const metrics = async (url: string) => String((await request(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).body);

  test('requests stay within the budget, none fails, each process limits locally, and Redis use resumes', async () => {
    // Up: Redis counts, and the budget of a key is shared by both processes.
    for (const s of [a, b]) {
      assert.deepEqual((await ready(s.url)).checks, { database: 'up', rate_limit: 'redis' }, JSON.stringify(logLines(s.child, /redis/)));
    }
    const warm: Answer[] = [];
    for (let i = 0; i < 10; i++) warm.push(await list(i % 2 ? b.url : a.url, keys.load));
    assert.deepEqual([...new Set(warm.map((r) => r.status))], [200]);
    // The slowest of ten ordinary requests on this (shared, busy) machine: the yardstick for "no longer than usual".
    const normal = Math.max(...warm.map((r) => r.ms));
    const SLACK_MS = 750;

    // Hung: the connection stays open and nothing answers.
    const hungAt = Date.now();
    redis.hang();
    const hung: Answer[] = [];
    for (let i = 0; i < 20; i++) hung.push(await list(i % 2 ? b.url : a.url, keys.load));
    assert.deepEqual([...new Set(hung.map((r) => r.status))], [200], 'every request answered, none 500');
    // The first request of each process pays the budget once; every later one skips Redis altogether.
    const slowest = Math.max(...hung.map((r) => r.ms));
    assert.ok(slowest < normal + BUDGET_MS + SLACK_MS, `slowest request during the hang took ${slowest} ms (budget ${BUDGET_MS} ms, normal ${normal} ms)`);
    for (const s of [a, b]) {
      assert.deepEqual((await ready(s.url)).checks, { database: 'up', rate_limit: 'local_fallback' }, '/readyz stays 200 and names the fallback');
      const text = await metrics(s.url);
      assert.match(text, /custops_rate_limit_backend\{backend="local_fallback"\} 1/);
      assert.match(text, /custops_dependency_up\{dependency="redis"\} 0/);
      assert.match(text, /custops_rate_limit_fallback_requests_total [1-9]/);
    }

    // Limits hold per process while Redis is out: 10 a minute for this key, in each process.
    for (const s of [a, b]) {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await list(s.url, keys.perProcess)).status);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    }

    // Killed while hung: connections reset, reconnects refused; still fast, still no 500.
    await redis.kill();
    const down: Answer[] = [];
    for (let i = 0; i < 20; i++) down.push(await list(i % 2 ? b.url : a.url, keys.load));
    assert.deepEqual([...new Set(down.map((r) => r.status))], [200]);
    assert.ok(
      Math.max(...down.map((r) => r.ms)) < normal + BUDGET_MS + SLACK_MS,
      `no request waits on a dead Redis: ${down.map((r) => r.ms)} (normal ${normal})`,
    );

    // Back: each process notices within its probe interval and counts in Redis again, shared.
    await redis.start();
    const back = Date.now();
    for (const s of [a, b]) {
      await waitUntil('Redis use resumes', async () => (await ready(s.url)).checks?.rate_limit === 'redis', 5_000, 50);
    }
    assert.ok(Date.now() - back < 3_000, `resumed ${Date.now() - back} ms after Redis returned`);
    const shared: number[] = [];
    for (let i = 0; i < 6; i++) shared.push((await list(i % 2 ? b.url : a.url, keys.shared)).status);
    assert.deepEqual(shared, [200, 200, 200, 200, 200, 429], 'one budget across both processes again');

    // One warning per outage per process (the hang and the kill are one outage), one line when it ends.
    // (A busy machine may also push an ordinary call past the budget: that is an outage of its own,
    // logged the same way, so only the lines inside this outage are counted exactly.)
    for (const s of [a, b]) {
      const during = (re: RegExp) => logLines(s.child, re).filter((l) => Number(l.time) >= hungAt && Number(l.time) <= Date.now());
      const all = JSON.stringify(logLines(s.child, /^redis/));
      assert.equal(during(/^redis unavailable$/).length, 1, all);
      assert.equal(during(/^redis available again$/).length, 1, all);
      assert.equal(logLines(s.child, /^redis unavailable$/).length, logLines(s.child, /^redis available again$/).length, all);
      assert.doesNotMatch(s.child.output(), /Unhandled error event|internal_error/);
      assert.ok(alive(s.child));
    }
  });
});
