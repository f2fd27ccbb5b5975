import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAvailable(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** Every child started, so `after` stops them even when a start timed out (their pipes would keep the test alive). */
const spawned: ChildProcess[] = [];

/** Starts `custops serve` as a real process on a free port; resolves with its base URL. */
function serve(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/custops.js', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    spawned.push(child);
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolve({ child, url: m[1] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    // Generous: on a machine busy with other suites a start can take well over ten seconds.
    // A child that never started must not outlive the test (it would keep the test process running).
    setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${out}`));
    }, 60_000).unref();
  });
}

describe('rate limit shared through Redis', async () => {
  const available = await redisAvailable();
  let urls: string[] = [];
  let secret = '';

  before(async () => {
    if (!available) return;
    const dir = mkdtempSync(join(tmpdir(), 'custops-rl-'));
    const databaseUrl = `sqlite:${join(dir, 'rl.db')}`;
    const database = openDatabase(databaseUrl);
    await migrateToLatest(database.db);
    const { account } = await createAccount({ db: database.db, clock: systemClock }, { name: 'Shared budget' });
    secret = (await createApiKey({ db: database.db, clock: systemClock }, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 10 })).secret;
    await database.close();
    // What is tested here is the shared budget; the 50 ms Redis budget (and the local fallback past it, tested by the
    // chaos suite) would otherwise turn a machine busy with other suites into two separate budgets.
    const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL, CUSTOPS_DATA_DIR: dir, LOG_LEVEL: 'info', CUSTOPS_REDIS_TIMEOUT_MS: '2000' };
    const started = await Promise.all([serve(env), serve(env)]);
    urls = started.map((s) => s.url);
  });

  after(() => {
    for (const s of spawned) if (s.exitCode === null && s.signalCode === null) s.kill('SIGTERM');
  });

  test('two server processes share one budget per key', { skip: available || process.env.CI ? false : 'Redis is not reachable (CI requires it)' }, async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${urls[i % 2]}/api/v1/orgs`, { headers: { authorization: `Bearer ${secret}` } });
      statuses.push(res.status);
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
      await res.arrayBuffer();
    }
    // Ten requests spread over both processes are allowed; the eleventh and twelfth are refused by either.
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    assert.deepEqual(remaining.slice(0, 10), ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
  });
});
