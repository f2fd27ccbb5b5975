import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { until } from '../helpers/until.ts';

// A quiet `custops serve` hands the heap it grew under load back to the system (src/lib/idle-memory.ts).

const NODE = 'node_modules/.bin/node';
const RELEASED = 'idle: unused heap handed back';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Release {
  heapBefore: number;
  heapAfter: number;
  ms: number;
  at: number;
}

interface Served {
  url: string;
  key: string;
  child: ChildProcess;
  releases: Release[];
  rssMb(): number;
}

/** A migrated SQLite database with an account and a key, and a `custops serve` process on it at debug level. */
async function serve(extraEnv: NodeJS.ProcessEnv): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-idle-'));
  dirs.push(dir);
  const databaseUrl = `sqlite:${join(dir, 'idle.db')}`;
  const h = openDatabase(databaseUrl);
  let key: string;
  try {
    await migrateToLatest(h.db);
    const deps = { db: h.db, clock: systemClock };
    const { account } = await createAccount(deps, { name: 'Idle memory' });
    key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 1_000_000 })).secret;
  } finally {
    await h.close();
  }
  const env = {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    CUSTOPS_DATA_DIR: dir,
    LOG_LEVEL: 'debug',
    HOST: '127.0.0.1',
    ...extraEnv,
  };
  const child = spawn(NODE, ['bin/custops.js', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const releases: Release[] = [];
  let pending = '';
  let url: string | null = null;
  child.stdout!.on('data', (d: Buffer) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const entry = JSON.parse(line) as { msg?: string; heapBefore?: number; heapAfter?: number; ms?: number };
      if (entry.msg === RELEASED) releases.push({ heapBefore: entry.heapBefore!, heapAfter: entry.heapAfter!, ms: entry.ms!, at: Date.now() });
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(entry.msg ?? '');
      if (m) url = m[1];
    }
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const deadline = Date.now() + 60_000;
  while (url === null) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      assert.fail(`serve did not start: ${stderr}`);
    }
    await sleep(20);
  }
  return {
    url,
    key,
    child,
    releases,
    rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
  };
}

async function stop(s: Served): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

/** Requests for `ms`, 16 in flight: writes, and reads of a 100-row page that make plenty of garbage. */
async function load(s: Served, ms: number): Promise<number> {
  const headers = { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' };
  const end = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: 16 }, async (_, lane) => {
      while (Date.now() < end) {
        const res =
          lane % 4 === 0
            ? await fetch(`${s.url}/api/v1/orgs`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ name: `Org ${randomBytes(6).toString('hex')} ${'x'.repeat(100)}` }),
              })
            : await fetch(`${s.url}/api/v1/orgs?per_page=100`, { headers });
        assert.ok(res.status === 200 || res.status === 201, `status ${res.status}`);
        await res.arrayBuffer();
        n++;
      }
    }),
  );
  return n;
}

describe('a quiet serve hands its heap back', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  test('after start-up and after a burst of load, once per quiet turn, never under load; CUSTOPS_IDLE_RELEASE_S=0 never', async () => {
    const [s, off] = await Promise.all([serve({ CUSTOPS_IDLE_RELEASE_S: '1' }), serve({ CUSTOPS_IDLE_RELEASE_S: '0' })]);
    try {
      // Start-up counts as work: its garbage goes at the first quiet second.
      await until('the release after start-up', () => s.releases.length === 1, 10_000, 50);
      assert.ok(s.releases[0].heapAfter < s.releases[0].heapBefore, JSON.stringify(s.releases[0]));
      // Quiet seconds after a release release nothing more: the heap has not grown, and nothing ran.
      await sleep(2_500);
      assert.equal(s.releases.length, 1, 'one release per quiet turn');

      const served = await load(s, 4_000);
      assert.ok(served > 200, `the load ran (${served} requests)`);
      assert.equal(s.releases.length, 1, 'no release while the event loop is busy');
      const rssUnderLoad = s.rssMb();

      await until('the release after the load', () => s.releases.length === 2, 10_000, 50);
      const r = s.releases[1];
      assert.ok(r.heapBefore - r.heapAfter >= 4 * 1024 * 1024, `the collection handed back the heap grown under load: ${JSON.stringify(r)}`);
      await sleep(500);
      const rssQuiet = s.rssMb();
      assert.ok(rssQuiet < rssUnderLoad, `RSS ${rssQuiet.toFixed(1)} MB when quiet against ${rssUnderLoad.toFixed(1)} MB under load`);
      await sleep(2_500);
      assert.equal(s.releases.length, 2, 'still one release for this quiet turn');

      // The same start-up and quiet seconds with the setting at 0: nothing.
      assert.equal(off.releases.length, 0);
    } finally {
      await Promise.all([stop(s), stop(off)]);
    }
  });
});
