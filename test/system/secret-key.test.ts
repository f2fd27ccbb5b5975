import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { createKeyFileOnce, readKeyFile } from '../../src/modules/secret-key/key-file.ts';
import { resolveSecretKey } from '../../src/modules/secret-key/resolve.ts';
import { Dispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../src/webhooks.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { custops } from '../webhooks/helpers/processes.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers/receiver.ts';
import { testPki } from '../webhooks/helpers/setup.ts';

const hex = () => randomBytes(32).toString('hex');

/** Every row of the tables that hold secrets or the fingerprint, as plain objects: "nothing changed" compares these. */
async function secretState(t: TestDatabase) {
  const db = t.handle.db;
  const plain = (rows: object[]) => rows.map((r) => ({ ...r }) as Record<string, unknown>);
  return {
    endpoints: plain(await db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute()),
    idempotency: plain(await db.selectFrom('idempotency_keys').selectAll().orderBy('id').execute()),
    settings: plain(await db.selectFrom('settings').selectAll().orderBy('name').execute()),
  };
}

interface Seeded {
  key: string;
  endpoints: { id: number; secret: string; url: string }[];
  replays: { idempotencyKey: string; body: object; answer: string }[];
}

/** Endpoints (one rotated, so a previous secret is stored too) and stored idempotent answers, made through the API under `config`'s key. */
async function seed(t: TestDatabase, settings: Config, receiver: Receiver): Promise<Seeded> {
  const config = await prepareDatabase(t.handle, settings, systemClock);
  const app = await buildApp(config, { database: t.handle, logger: false });
  try {
    const { account } = await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Keys' });
    const key = (await createApiKey({ db: t.handle.db, clock: systemClock }, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: null }))
      .secret;
    const post = (url: string, body: object, idem: string) =>
      app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem }, payload: body });
    const endpoints = [];
    const replays = [];
    for (const path of ['/one', '/two']) {
      const body = { name: path, url: receiver.url(path), event_types: ['deal.created'] };
      const res = await post('/api/v1/webhooks/endpoints', body, `create${path}`);
      assert.equal(res.statusCode, 201, res.body);
      endpoints.push({ id: res.json().id as number, secret: res.json().secret as string, url: body.url });
      replays.push({ idempotencyKey: `create${path}`, body, answer: res.body });
    }
    const rotated = await post(`/api/v1/webhooks/endpoints/${endpoints[1].id}/rotate-secret`, {}, 'rotate');
    assert.equal(rotated.statusCode, 200);
    endpoints[1].secret = rotated.json().secret;
    const org = await post('/api/v1/orgs', { name: 'Acme' }, 'org');
    replays.push({ idempotencyKey: 'org', body: { name: 'Acme' }, answer: org.body });
    return { key, endpoints, replays };
  } finally {
    await app.close();
  }
}

for (const engine of engines()) {
  describe(`secret key fingerprint and rotation [${engine}]`, () => {
    let t: TestDatabase;
    let receiver: Receiver;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'custops-keys-'));
      t = await createTestDatabase(engine, { sqlitePath: join(dir, 'custops.db') });
      receiver = await startReceiver(testPki());
    });
    after(async () => {
      await receiver.close();
      await t.drop();
    });

    test('serve and worker refuse a different key in one line naming CUSTOPS_SECRET_KEY, and change nothing', async () => {
      const keyA = hex();
      await seed(t, loadConfig({ CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1', DATABASE_URL: t.url, CUSTOPS_SECRET_KEY: keyA }), receiver);
      const before = await secretState(t);
      assert.equal(before.settings.length, 1, 'the fingerprint is recorded');
      for (const args of [['serve', '--port', '0'], ['worker']]) {
        const child = custops(args, { DATABASE_URL: t.url, CUSTOPS_SECRET_KEY: hex(), LOG_LEVEL: 'warn' });
        const exit = await child.exited;
        assert.equal(exit.code, 1, `${args[0]}: ${child.output()}`);
        const lines = child.output().trim().split('\n');
        assert.equal(lines.length, 1, child.output());
        assert.match(lines[0], /^custops: CUSTOPS_SECRET_KEY: is not the key this database's secrets are encrypted with/);
      }
      assert.deepEqual(await secretState(t), before, 'nothing changed');
      assert.ok(!existsSync(join(dir, 'secret.key')), 'no key file was generated');
    });

    test('secret-key rotate re-encrypts every secret: each endpoint still delivers, each stored answer still replays, the old key is refused', async () => {
      const oldKey = hex();
      const t2 = await createTestDatabase(engine, { sqlitePath: join(dir, 'rotate.db') });
      try {
        const seeded = await seed(t2, loadConfig({ CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1', DATABASE_URL: t2.url, CUSTOPS_SECRET_KEY: oldKey }), receiver);
        const before = await secretState(t2);
        const rotate = custops(['secret-key', 'rotate'], { DATABASE_URL: t2.url, CUSTOPS_SECRET_KEY: oldKey, LOG_LEVEL: 'warn' });
        assert.equal((await rotate.exited).code, 0, rotate.output());
        const result = JSON.parse(rotate.output());
        assert.equal(result.webhook_endpoints, 2);
        // The org's answer holds no credential: it is stored in plain, and replays below without a key.
        assert.equal(result.idempotency_responses, 3, 'two endpoint creations and the rotation');
        const after = await secretState(t2);
        for (const [i, row] of after.endpoints.entries()) {
          assert.notEqual(row.secret_encrypted, before.endpoints[i].secret_encrypted, 'secrets re-encrypted');
        }
        assert.notEqual(after.endpoints[1].previous_secret_encrypted, null);
        assert.notDeepEqual(after.settings, before.settings, 'new fingerprint');

        const refused = custops(['worker'], { DATABASE_URL: t2.url, CUSTOPS_SECRET_KEY: oldKey });
        assert.equal((await refused.exited).code, 1, 'the old key is refused now');

        const config = await prepareDatabase(
          t2.handle,
          loadConfig({ CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1', DATABASE_URL: t2.url, CUSTOPS_SECRET_KEY: result.secret_key }),
          systemClock,
        );
        const app = await buildApp(config, { database: t2.handle, logger: false });
        try {
          for (const r of seeded.replays) {
            const url = r.idempotencyKey === 'org' ? '/api/v1/orgs' : '/api/v1/webhooks/endpoints';
            const res = await app.inject({
              method: 'POST',
              url,
              headers: { authorization: `Bearer ${seeded.key}`, 'idempotency-key': r.idempotencyKey },
              payload: r.body,
            });
            assert.equal(res.headers['idempotent-replayed'], 'true', res.body);
            assert.equal(res.body, r.answer, 'the stored answer replays as first given (secret included)');
          }
          const org = (
            await app.inject({ method: 'POST', url: '/api/v1/orgs', headers: { authorization: `Bearer ${seeded.key}` }, payload: { name: 'Later' } })
          ).json();
          const deal = await app.inject({
            method: 'POST',
            url: '/api/v1/deals',
            headers: { authorization: `Bearer ${seeded.key}` },
            payload: { org_id: org.id, title: 'After rotation' },
          });
          assert.equal(deal.statusCode, 201);
        } finally {
          await app.close();
        }
        const dispatcher = new Dispatcher({ database: t2.handle, config, clock: systemClock, ca: testPki().ca });
        await dispatcher.drain();
        await dispatcher.stop();
        for (const ep of seeded.endpoints) {
          const got = receiver.received.filter((r) => r.path === new URL(ep.url).pathname);
          assert.equal(got.length, 1, `${ep.url} got the event`);
          assert.ok(verifyWebhookSignature(got[0].raw, got[0].headers as Record<string, string>, ep.secret), 'signed with the same secret as before');
          assert.ok(verifyStandardWebhook(got[0].raw, got[0].headers as Record<string, string>, ep.secret));
        }
      } finally {
        await t2.drop();
      }
    });

    if (engine === 'sqlite') {
      test('two processes starting at once on a new database make one key file and both use it', async () => {
        const sub = mkdtempSync(join(tmpdir(), 'custops-keyrace-'));
        const path = join(sub, 'custops.db');
        const t4 = await createTestDatabase('sqlite', { sqlitePath: path });
        try {
          const config = loadConfig({ DATABASE_URL: `sqlite:${path}` });
          // Both look for the file, find none and create one: each start's awaits interleave with the other's.
          const [a, b] = await Promise.all([0, 1].map(() => resolveSecretKey(config, t4.handle.db, Date.now())));
          assert.deepEqual(a.key, b.key);
          assert.deepEqual(readKeyFile(join(sub, 'secret.key')), a.key);
          assert.deepEqual(
            readdirSync(sub).filter((f) => f.startsWith('secret.key')),
            ['secret.key'],
            'no file of either start left beside it',
          );
          const file = join(sub, 'secret.key');
          assert.equal(createKeyFileOnce(file, randomBytes(32)), false, 'an existing key file is kept');
          assert.deepEqual(readKeyFile(file), a.key);
        } finally {
          await t4.drop();
        }
      });

      test('the generated key file lives beside the database; missing or replaced, the start is refused naming it', async () => {
        const sub = mkdtempSync(join(tmpdir(), 'custops-keyfile-'));
        const url = `sqlite:${join(sub, 'db', 'custops.db')}`;
        const t3 = await createTestDatabase('sqlite', { sqlitePath: join(sub, 'db', 'custops.db') });
        try {
          await seed(t3, loadConfig({ CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1', DATABASE_URL: url }), receiver);
          const file = join(sub, 'db', 'secret.key');
          assert.ok(existsSync(file), 'generated beside the database');
          const before = await secretState(t3);
          // From another working directory, the same file is found: a worker starts.
          const ok = custops(['secret-key', 'rotate'], { DATABASE_URL: url });
          assert.equal((await ok.exited).code, 0, ok.output());
          assert.equal(JSON.parse(ok.output()).key_file, file);
          assert.ok(!existsSync(`${file}.next`));
          const rotatedState = await secretState(t3);
          assert.notDeepEqual(rotatedState.settings, before.settings);

          renameSync(file, `${file}.moved`);
          const missing = custops(['serve', '--port', '0'], { DATABASE_URL: url });
          assert.equal((await missing.exited).code, 1);
          assert.match(missing.output(), new RegExp(`^custops: secret key file ${file.replaceAll('/', '\\/')}: is missing, but this database holds secrets`));
          assert.ok(!existsSync(file), 'no new key was generated over existing secrets');

          writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
          const other = custops(['worker'], { DATABASE_URL: url });
          assert.equal((await other.exited).code, 1);
          assert.match(other.output().trim(), /^custops: secret key file .*: is not the key this database's secrets are encrypted with[^\n]*$/);
          assert.deepEqual(await secretState(t3), rotatedState, 'nothing changed');
          renameSync(`${file}.moved`, file);
          assert.ok(readFileSync(file, 'utf8').trim().length > 0);
        } finally {
          await t3.drop();
        }
      });
    }
  });
}
