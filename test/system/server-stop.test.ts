import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { createTestDatabase, engines, type EngineName, type TestDatabase } from '../helpers/engines.ts';
import { waitUntil } from '../webhooks/helpers/processes.ts';

/** `serve` in this process over a fresh database of the engine (already migrated), listening on a free port. */
async function serveOn(engine: EngineName): Promise<{ t: TestDatabase; server: RunningServer }> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-stop-'));
  const t = await createTestDatabase(engine, engine === 'sqlite' ? { sqlitePath: join(dir, 'stop.db') } : {});
  const config = loadConfig({
    DATABASE_URL: t.url,
    CUSTOPS_DATA_DIR: dir,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  return { t, server: await startServer(config, { logger: false, migrate: false }) };
}

// `serve` stops after the handlers still running have done their database work. A client that hangs
// up while its handler runs gets no answer delivered; its handler must still count as finished once
// its answer is ready, or every later stop would wait out the whole drain time-out. PostgreSQL, where
// a handler can be held at a lock without holding up the process (SQLite's busy wait blocks it).
describe('stopping serve', { skip: !process.env.TEST_POSTGRES_URL && 'needs TEST_POSTGRES_URL' }, () => {
  test('a request whose client hung up mid-handler is done once its handler is, and the write it made is kept', async () => {
    const { t, server } = await serveOn('postgres');
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    let stopped = false;
    try {
      const deps = { db: t.handle.db, clock: { now: () => Date.now() } };
      const { account } = await createAccount(deps, { name: 'Stopping' });
      const key = await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: null });
      const body = JSON.stringify({ name: 'Hung up on' });
      // Another connection holds the orgs table, so the handler waits inside its transaction while the client,
      // having sent the whole request, hangs up.
      await locker.query('begin');
      await locker.query('lock table orgs in exclusive mode');
      const url = new URL(`${server.url}/api/v1/orgs`);
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.secret}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('error', () => {});
      req.end(body);
      await waitUntil('the handler running', () => server.handlersRunning() === 1, 10_000, 5);
      const closed = new Promise((resolve) => req.on('close', resolve));
      req.destroy();
      await closed;
      await locker.query('rollback');
      // Its handler finishes and stops counting, though no answer could be delivered.
      await waitUntil('the hung-up request no longer counted as running', () => server.handlersRunning() === 0, 10_000, 5);
      const org = await t.handle.db.selectFrom('orgs').select('name').where('account_id', '=', account.id).executeTakeFirst();
      assert.equal(org?.name, 'Hung up on', 'the write the handler made is kept');
      await server.stop();
      stopped = true;
    } finally {
      await locker.end();
      if (!stopped) await server.stop();
      await t.drop();
    }
  });
});

// The event stream takes its reply over (no onSend, no onResponse): it must not count as a handler
// running, or it would stay counted for ever and every later stop would wait out the drain time-out.
for (const engine of engines()) {
  describe(`stopping serve after event streams [${engine}]`, () => {
    test('an event stream, open or gone, is not a handler that stopping waits for; stopping ends an open one', async () => {
      const { t, server } = await serveOn(engine);
      let stopped = false;
      try {
        const deps = { db: t.handle.db, clock: { now: () => Date.now() } };
        const { account } = await createAccount(deps, { name: 'Streams' });
        const key = await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: null });
        const open = async () => {
          const controller = new AbortController();
          const res = await fetch(`${server.url}/api/v1/events/stream`, { headers: { authorization: `Bearer ${key.secret}` }, signal: controller.signal });
          assert.equal(res.status, 200);
          const reader = res.body!.getReader();
          assert.match(new TextDecoder().decode((await reader.read()).value), /^retry: /);
          return { controller, reader };
        };
        // One stream whose client goes away, then one left open.
        const gone = await open();
        assert.equal(server.handlersRunning(), 0, 'an open stream is not a running handler');
        gone.controller.abort();
        const left = await open();
        assert.equal(server.handlersRunning(), 0);
        const started = Date.now();
        await server.stop();
        stopped = true;
        // The drain time-out is 15 s; a counted stream would hold the stop that long.
        assert.ok(Date.now() - started < 5_000, `stop took ${Date.now() - started} ms`);
        // Stopping ended the open stream: its body finishes.
        for (;;) if ((await left.reader.read().catch(() => ({ done: true }))).done) break;
      } finally {
        if (!stopped) await server.stop();
        await t.drop();
      }
    });
  });
}
