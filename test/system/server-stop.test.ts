import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { createTestDatabase } from '../helpers/engines.ts';
import { waitUntil } from '../webhooks/helpers/processes.ts';

// `serve` stops after the handlers still running have done their database work. A client that hangs
// up while its handler runs gets no answer delivered; its handler must still count as finished once
// its answer is ready, or every later stop would wait out the whole drain time-out. PostgreSQL, where
// a handler can be held at a lock without holding up the process (SQLite's busy wait blocks it).
describe('stopping serve', { skip: !process.env.TEST_POSTGRES_URL && 'needs TEST_POSTGRES_URL' }, () => {
  test('a request whose client hung up mid-handler is done once its handler is, and the write it made is kept', async () => {
    const t = await createTestDatabase('postgres');
    const dir = mkdtempSync(join(tmpdir(), 'custops-stop-'));
    const config = loadConfig({
      DATABASE_URL: t.url,
      CUSTOPS_DATA_DIR: dir,
      CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      PORT: '0',
    });
    const server = await startServer(config, { logger: false, migrate: false });
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
