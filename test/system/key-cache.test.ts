import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { authChangeStats, revokeKey } from '../../src/modules/api-keys/api-keys.repository.ts';
import { KeyCache } from '../../src/modules/api-keys/key-cache.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { custops, freePort, waitForHttp, waitUntil, type Child } from '../webhooks/helpers/processes.ts';

/** Looks the key up, and tells whether the cache now holds it. */
async function cached(cache: KeyCache, hash: string): Promise<boolean> {
  await cache.find(hash);
  return cache.size === 1;
}

for (const engine of engines()) {
  describe(`API key cache [${engine}]`, () => {
    let db: TestDatabase;
    /** A second connection (SQLite) or pool (PostgreSQL) to the same database: what another process sees. */
    let other: DatabaseHandle;
    const children: Child[] = [];
    before(async () => {
      db = await createTestDatabase(engine, { sqlitePath: join(mkdtempSync(join(tmpdir(), 'custops-keys-')), 'keys.db') });
      other = openDatabase(db.url, { poolSize: 2 });
    });
    after(async () => {
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
      await other.close();
      await db.drop();
    });

    const newKey = async () => {
      const deps = { db: db.handle.db, clock: systemClock };
      const { account } = await createAccount(deps, { name: `Keys ${randomBytes(3).toString('hex')}` });
      return createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 100 });
    };

    test('serves a key from memory until a revocation elsewhere drops it; unknown and revoked keys are not kept', async () => {
      const cache = new KeyCache(other);
      try {
        const key = await newKey();
        const hash = sha256Hex(key.secret);
        // PostgreSQL: the cache serves nothing until its LISTEN connection is up.
        if (engine === 'postgres') await waitUntil('the cache listening', () => cached(cache, hash), 5000, 20);
        assert.equal((await cache.find(hash))?.rate_limit_per_minute, 100);
        assert.equal(cache.size, 1);
        // A change that bypasses markAuthChanged is not seen: the row is served from memory.
        await db.handle.db.updateTable('api_keys').set({ rate_limit_per_minute: 7 }).where('id', '=', key.id).execute();
        assert.equal((await cache.find(hash))?.rate_limit_per_minute, 100, 'served from the cache');
        assert.equal(await cache.find(sha256Hex('cok_not_a_key')), undefined);
        assert.equal(cache.size, 1, 'an unknown key is not remembered');

        await revokeApiKey({ db: db.handle.db, clock: systemClock }, key.id);
        // SQLite sees the version move on the next lookup; on PostgreSQL the revocation waited for this cache to drop it.
        const row = await cache.find(hash);
        assert.ok(row && row.revoked_at !== null, 'the revocation is seen');
        assert.equal(row.rate_limit_per_minute, 7, 'read afresh');
        assert.equal(cache.size, 0, 'a revoked key is not remembered');
      } finally {
        await cache.close();
      }
    });

    test('a rolled-back revocation drops nothing and changes nothing', async () => {
      const cache = new KeyCache(other);
      try {
        const key = await newKey();
        const hash = sha256Hex(key.secret);
        await waitUntil('the key cached', () => cached(cache, hash), 5000, 20);
        await assert.rejects(
          db.handle.db.transaction().execute(async (trx) => {
            assert.equal(await revokeKey(trx, key.id, Date.now()), true);
            throw new Error('roll back');
          }),
          /roll back/,
        );
        await new Promise((r) => setTimeout(r, 100));
        assert.equal((await cache.find(hash))?.revoked_at, null);
        assert.equal(cache.size, 1);
      } finally {
        await cache.close();
      }
    });

    test('PostgreSQL: every live cache acknowledges a revocation before it returns, concurrent revocations included', {
      skip: engine !== 'postgres',
    }, async () => {
      const handles = [other, openDatabase(db.url, { poolSize: 2 }), openDatabase(db.url, { poolSize: 2 })];
      const caches = handles.map((h) => new KeyCache(h));
      try {
        const keys = await Promise.all([newKey(), newKey()]);
        const hashes = keys.map((k) => sha256Hex(k.secret));
        for (const cache of caches) {
          await waitUntil('the cache listening', () => cached(cache, hashes[0]!), 5000, 20);
          await cache.find(hashes[1]!);
          assert.equal(cache.size, 2);
        }
        const unacknowledged = authChangeStats.unacknowledged;
        const deps = { db: db.handle.db, clock: systemClock };
        await Promise.all(keys.map((k) => revokeApiKey(deps, k.id)));
        // Each revocation returned only once every cache had let go of its shared lock, that is, had dropped its keys:
        // none waited out its time-out, and no cache still holds a key, without a lookup to prompt it.
        assert.equal(authChangeStats.unacknowledged, unacknowledged, 'every cache acknowledged both revocations');
        assert.deepEqual(
          caches.map((c) => c.size),
          [0, 0, 0],
        );
        for (const cache of caches) for (const hash of hashes) assert.notEqual((await cache.find(hash))?.revoked_at, null);
      } finally {
        for (const cache of caches) await cache.close();
        await Promise.all(handles.slice(1).map((h) => h.close()));
      }
    });

    test('custops serve refuses a key at once after another process revokes it', async () => {
      const key = await newKey();
      const port = await freePort();
      const serve = custops(['serve', '--port', String(port)], {
        DATABASE_URL: db.url,
        CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        CUSTOPS_DATA_DIR: mkdtempSync(join(tmpdir(), 'custops-keys-data-')),
      });
      children.push(serve);
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, serve, 60_000);
      const get = () => fetch(`http://127.0.0.1:${port}/api/v1/deals`, { headers: { authorization: `Bearer ${key.secret}` } });
      // Once the server's cache is live (PostgreSQL: listening), the key is answered from memory.
      for (let i = 0; i < 3; i++) assert.equal((await get()).status, 200);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await get()).status, 200);

      // This test process is the other process: the revocation commits here.
      const unacknowledged = authChangeStats.unacknowledged;
      assert.deepEqual(await revokeApiKey({ db: db.handle.db, clock: systemClock }, key.id), { id: key.id, revoked: true });
      // SQLite: the server reads the version row on every request. PostgreSQL: the revocation returned only once every
      // live cache (this server's among them) had dropped its keys. Either way the very next request is refused.
      const res = await get();
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: string }).error, 'unauthorized');
      for (let i = 0; i < 5; i++) assert.equal((await get()).status, 401, 'and stays refused');
      assert.equal(authChangeStats.unacknowledged, unacknowledged, "the server's cache acknowledged the revocation");

      serve.proc.kill('SIGTERM');
      assert.equal((await serve.exited).code, 0, serve.output());
    });
  });
}
