import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, timeoutsOf, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { App } from '../../src/http/types.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { tableCounts } from '../helpers/counts.ts';

interface Setup {
  app: App;
  database: DatabaseHandle;
  key: string;
  path: string;
  close(): Promise<void>;
}

/** The app over a SQLite file, with the busy time-out short so the test is quick. */
async function setup(dir: string): Promise<Setup> {
  const path = join(dir, 'faults.db');
  const config = loadConfig({
    DATABASE_URL: `sqlite:${path}`,
    CUSTOPS_SQLITE_BUSY_TIMEOUT_MS: '300',
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const database = openDatabase(config.databaseUrl, timeoutsOf(config));
  await migrateToLatest(database.db);
  const deps = { db: database.db, clock: systemClock };
  const { account } = await createAccount(deps, { name: 'Faults' });
  const key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: null })).secret;
  const app = await buildApp(config, { database, logger: false });
  await app.ready();
  return {
    app,
    database,
    key,
    path,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

function createOrg(s: Setup, name: string, idempotencyKey: string | null) {
  return s.app.inject({
    method: 'POST',
    url: '/api/v1/orgs',
    headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: JSON.stringify({ name }),
  });
}

function assertUnavailable(res: Awaited<ReturnType<typeof createOrg>>, reason: string): void {
  assert.equal(res.statusCode, 503, res.body);
  const body = res.json();
  assert.equal(body.error, 'service_unavailable');
  assert.equal(body.reason, reason);
  assert.match(body.request_id, /^req_/);
  assert.equal(res.headers['retry-after'], '1');
  assert.equal(res.headers['x-request-id'], body.request_id);
}

/** A tmpfs of `bytes` at `dir` (root only); false where mounting is not allowed. */
function mountTmpfs(dir: string, bytes: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('SQLite faults answer 503 and write nothing', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  test('another process holding the write lock past the busy time-out: 503 database_busy, then the same key succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custops-busy-'));
    const s = await setup(dir);
    cleanups.push(
      () => s.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const before = await tableCounts(s.database.db);
    // Another connection (as another process would) takes the write lock and keeps it.
    const other = new DatabaseSync(s.path);
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const res = await createOrg(s, 'Busy Ltd', 'busy-1');
    const took = Date.now() - started;
    other.exec('ROLLBACK');
    other.close();
    assertUnavailable(res, 'database_busy');
    assert.ok(took >= 250 && took < 2_000, `answered after the busy time-out (${took} ms)`);
    assert.deepEqual(await tableCounts(s.database.db), before, 'nothing written, no idempotency claim left');
    const retry = await createOrg(s, 'Busy Ltd', 'busy-1');
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal(retry.headers['idempotent-replayed'], undefined, 'a fresh run, not a replay');
  });

  test('a lock held for less than the busy time-out is waited for, even by a write that reads first: 201, not 503', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custops-busy-short-'));
    const s = await setup(dir);
    cleanups.push(
      () => s.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const org = await createOrg(s, 'Waits Ltd', null);
    assert.equal(org.statusCode, 201);
    // A deal activity reads the deal before writing: with a deferred BEGIN, SQLite refuses the
    // read-to-write upgrade at once while another connection writes, whatever the busy time-out.
    const deal = await s.app.inject({
      method: 'POST',
      url: '/api/v1/deals',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ org_id: org.json().id, title: 'Wait' }),
    });
    assert.equal(deal.statusCode, 201, deal.body);
    // node:sqlite waits synchronously, so the lock is held by another process, released after 150 ms.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const {DatabaseSync}=require('node:sqlite');const d=new DatabaseSync(${JSON.stringify(s.path)});d.exec('BEGIN IMMEDIATE');console.log('locked');setTimeout(()=>{d.exec('ROLLBACK');process.exit(0)},150)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/deals/${deal.json().id}/activities`,
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ source_app: 'test', message: 'waited for the lock' }),
    });
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.equal(res.statusCode, 201, res.body);
  });

  test('a full disk: 503 database_full, nothing half-written, and writes work again once there is room', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'custops-full-'));
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    // A real full file system where the test may mount one; otherwise SQLite's own size cap, which
    // fails a write with the same SQLITE_FULL.
    const realDisk = mountTmpfs(disk, 16 * 1024 * 1024);
    t.diagnostic(realDisk ? 'a 16 MiB tmpfs filled to ENOSPC' : 'no mount permission: PRAGMA max_page_count at the current size');
    const s = await setup(disk);
    cleanups.push(() => {
      if (realDisk) execFileSync('umount', ['-l', disk]);
      rmSync(dir, { recursive: true, force: true });
    });
    cleanups.push(() => s.close());
    assert.equal((await createOrg(s, 'Warm-up', 'full-0')).statusCode, 201);
    const filler = join(disk, 'filler');
    if (realDisk) {
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        closeSync(fd);
      }
    } else {
      const pages = (s.database.sqlite!.raw.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
      s.database.sqlite!.raw.exec(`PRAGMA max_page_count = ${pages}`);
    }
    const before = await tableCounts(s.database.db);
    // Large enough that its pages cannot fit in what is left. Without a key the failing statement is
    // inside the write's transaction, which SQLite rolls back by itself; with one, the key's claim fails first.
    assertUnavailable(await createOrg(s, 'Full '.repeat(40), null), 'database_full');
    assertUnavailable(await createOrg(s, 'Full '.repeat(40), 'full-1'), 'database_full');
    assert.deepEqual(await tableCounts(s.database.db), before, 'the transactions rolled back entirely');
    if (realDisk) rmSync(filler);
    else s.database.sqlite!.raw.exec('PRAGMA max_page_count = 1073741823');
    const retry = await createOrg(s, 'Full '.repeat(40), 'full-1');
    assert.equal(retry.statusCode, 201, retry.body);
    const after = await tableCounts(s.database.db);
    assert.equal(after.orgs, before.orgs + 1);
    assert.equal(after.idempotency_keys, before.idempotency_keys + 1);
  });
});
