import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrations, migrateToLatest } from '../../src/db/migrate.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { startServer } from '../../src/server.ts';
import { runWorker } from '../../src/worker.ts';
import { assertFailed, jsonLine, keyCreate, runCli as cli } from '../helpers/cli.ts';
import { createTestDatabase, engines, type EngineName, type TestDatabase } from '../helpers/engines.ts';
import { waitUntil } from '../webhooks/helpers/processes.ts';
import { endpointRow } from '../webhooks/helpers/endpoint-row.ts';

const DAY = 86_400_000;

/** An empty database the CLI and servers reach by URL: a SQLite file, or a PostgreSQL schema of its own. */
async function emptyDatabase(engine: EngineName, dir: string): Promise<{ url: string; handle: DatabaseHandle; drop(): Promise<void> }> {
  const db = await createTestDatabase(engine, { sqlitePath: join(dir, `${randomBytes(4).toString('hex')}.db`), migrate: false });
  return { url: db.url, handle: db.handle, drop: () => db.drop() };
}

/** The tables of this database (PostgreSQL: of this schema only; other files create and drop theirs meanwhile). */
async function tables(handle: DatabaseHandle): Promise<string[]> {
  const query =
    handle.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
  return (await query.execute(handle.db)).rows.map((r) => r.name);
}

/** An account whose endpoint received events: `delivered(daysAgo)` adds one, sent then with one attempt. */
async function deliveredHistory(handle: DatabaseHandle, secretKeyHex: string) {
  const db = handle.db;
  const now = Date.now();
  const { id: accountId } = await db
    .insertInto('accounts')
    .values({ name: 'Old', created_at: now - 90 * DAY })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: endpointId } = await db
    .insertInto('webhook_endpoints')
    .values(
      endpointRow({
        accountId,
        name: 'e',
        url: 'https://hooks.example.com/',
        eventTypes: ['deal.won'],
        secretKey: Buffer.from(secretKeyHex, 'hex'),
        now,
        createdAt: now - 90 * DAY,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    async delivered(daysAgo: number): Promise<number> {
      const at = now - daysAgo * DAY;
      const { id: eventId } = await db
        .insertInto('events')
        .values({
          account_id: accountId,
          public_id: `evt_${randomBytes(8).toString('hex')}`,
          event_type: 'deal.won',
          org_id: 1,
          payload: '{}',
          created_at: at,
          dispatched_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: deliveryId } = await db
        .insertInto('webhook_deliveries')
        .values({
          account_id: accountId,
          endpoint_id: endpointId,
          event_id: eventId,
          event_type: 'deal.won',
          status: 'sent',
          attempts: 1,
          next_attempt_at: null,
          response_status: 200,
          created_at: at,
          last_attempt_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('webhook_attempts')
        .values({
          account_id: accountId,
          delivery_id: deliveryId,
          attempt_number: 1,
          trigger: 'scheduled',
          status_code: 200,
          error: null,
          response_body: 'ok',
          duration_ms: 5,
          requested_at: at,
        })
        .execute();
      return eventId;
    },
  };
}

for (const engine of engines()) {
  describe(`operations [${engine}]`, () => {
    let dir: string;
    // One secret key per suite: the database records its fingerprint at the first start.
    const secretKey = randomBytes(32).toString('hex');
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'custops-ops-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const settings = (url: string, extra: Record<string, string> = {}) => ({
      DATABASE_URL: url,
      CUSTOPS_SECRET_KEY: secretKey,
      CUSTOPS_DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      ...extra,
    });

    test('serve --no-migrate and worker --no-migrate refuse an unmigrated database in one line and leave it untouched', async () => {
      const db = await emptyDatabase(engine, dir);
      try {
        const env = settings(db.url);
        for (const args of [
          ['serve', '--no-migrate', '--port', '0'],
          ['worker', '--no-migrate'],
        ]) {
          const lacks = `the database lacks ${Object.keys(migrations).length} migration\\(s\\) of this version \\(2026-11-21T0000_initial, .*\\)`;
          assertFailed(await cli(args, env), args[0], new RegExp(`^custops: --no-migrate: ${lacks}: run "custops migrate" first\\n$`), 1);
        }
        assert.deepEqual(await tables(db.handle), [], 'nothing created, not even the migration bookkeeping');
        assert.deepEqual(JSON.parse((await cli(['migrate'], env)).stdout), { migrated: Object.keys(migrations) }, 'custops migrate is the deploy step');
      } finally {
        await db.drop();
      }
    });

    test('serve --no-migrate refuses a database one migration behind, naming it; once migrated it serves without migrating', async () => {
      const db = await emptyDatabase(engine, dir);
      try {
        const names = Object.keys(migrations);
        const last = names.at(-1)!;
        const previous = Object.fromEntries(names.slice(0, -1).map((n) => [n, migrations[n]]));
        const schema = engine === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db.handle.db)).rows[0].s : undefined;
        const older = new Migrator({
          db: db.handle.db,
          provider: { getMigrations: async () => previous },
          ...(schema ? { migrationTableSchema: schema } : {}),
        });
        assert.equal((await older.migrateToLatest()).error, undefined);
        const env = settings(db.url);
        const refused = await cli(['serve', '--no-migrate', '--port', '0'], env);
        assert.equal(refused.code, 1);
        assert.equal(refused.stderr, `custops: --no-migrate: the database lacks 1 migration(s) of this version (${last}): run "custops migrate" first\n`);
        assert.deepEqual(JSON.parse((await cli(['migrate'], env)).stdout), { migrated: [last] });

        const config = loadConfig(env);
        const server = await startServer(config, { logger: false, migrate: false });
        try {
          assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
          const { account } = JSON.parse((await cli(['account', 'create', '--name', 'Rolling'], env)).stdout);
          const key = JSON.parse((await cli(keyCreate(account.id, 'deploy'), env)).stdout);
          const res = await fetch(`${server.url}/api/v1/orgs`, { headers: { authorization: `Bearer ${key.secret}` } });
          assert.equal(res.status, 200);
        } finally {
          await server.stop();
        }
      } finally {
        await db.drop();
      }
    });

    test('key list --account: every key newest first with prefix, scopes, created, last used and revoked; never a secret', async () => {
      const db = await emptyDatabase(engine, dir);
      try {
        const env = settings(db.url);
        const json = async (args: string[]) => jsonLine(await cli(args, env), args.join(' '));
        const { account } = await json(['account', 'create', '--name', 'Listed']);
        const other = await json(['account', 'create', '--name', 'Other']);
        assert.deepEqual(await json(['key', 'list', '--account', String(account.id)]), { data: [] });
        const full = await json(keyCreate(account.id, 'ci'));
        const scoped = await json(keyCreate(account.id, 'reader', '--scopes', 'deals:read,orgs:read', '--rate-limit', '30'));
        await json(keyCreate(other.account.id, 'elsewhere'));
        await json(['key', 'revoke', '--id', String(full.id)]);

        const server = await startServer(loadConfig(env), { logger: false, migrate: false });
        try {
          assert.equal((await fetch(`${server.url}/api/v1/orgs`, { headers: { authorization: `Bearer ${scoped.secret}` } })).status, 200);
          // last_used_at is written off the request path.
          await waitUntil(
            'last_used_at',
            async () => {
              const row = await db.handle.db.selectFrom('api_keys').select('last_used_at').where('id', '=', scoped.id).executeTakeFirstOrThrow();
              return row.last_used_at !== null;
            },
            10_000,
          );
        } finally {
          await server.stop();
        }
        const r = await cli(['key', 'list', '--account', String(account.id)], env);
        assert.equal(r.code, 0);
        const listed = JSON.parse(r.stdout);
        const rows = await db.handle.db.selectFrom('api_keys').selectAll().where('account_id', '=', account.id).execute();
        const row = (id: number) => rows.find((k) => k.id === id)!;
        const at = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
        assert.deepEqual(listed, {
          data: [
            {
              id: scoped.id,
              name: 'reader',
              prefix: row(scoped.id).prefix,
              scopes: ['deals:read', 'orgs:read'],
              rate_limit_per_minute: 30,
              created_at: at(row(scoped.id).created_at),
              last_used_at: at(row(scoped.id).last_used_at),
              revoked_at: null,
            },
            {
              id: full.id,
              name: 'ci',
              prefix: row(full.id).prefix,
              scopes: ['*'],
              rate_limit_per_minute: null,
              created_at: at(row(full.id).created_at),
              last_used_at: null,
              revoked_at: at(row(full.id).revoked_at),
            },
          ],
        });
        assert.ok(listed.data[0].last_used_at !== null && listed.data[1].revoked_at !== null);
        for (const [key, item] of [
          [scoped, listed.data[0]],
          [full, listed.data[1]],
        ]) {
          assert.ok(key.secret.startsWith(item.prefix) && item.prefix.length < key.secret.length, 'the prefix tells keys apart');
          assert.ok(!r.stdout.includes(key.secret) && !r.stdout.includes(sha256Hex(key.secret)), 'neither the secret nor its hash');
        }

        for (const [args, pattern, code] of [
          [['key', 'list', '--account', 'abc'], /^custops: --account must be a positive whole number \(run "custops help" for usage\)\n$/, 2],
          [['key', 'list', '--account', '0'], /--account must be a positive whole number/, 2],
          [['key', 'list'], /^custops: --account is required/, 2],
          [['key', 'list', '--account', '999999'], /^custops: no account with id 999999\n$/, 1],
        ] as const) {
          assertFailed(await cli([...args], env), args.join(' '), pattern, code);
        }
      } finally {
        await db.drop();
      }
    });

    test('serve and worker each purge old webhook history by themselves at start (CUSTOPS_WEBHOOK_RETENTION_DAYS)', async () => {
      const db = await emptyDatabase(engine, dir);
      try {
        await migrateToLatest(db.handle.db);
        const history = await deliveredHistory(db.handle, secretKey);
        const events = async () => (await db.handle.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id);
        const sixty = await history.delivered(60);
        const twenty = await history.delivered(20);
        const ten = await history.delivered(10);

        const server = await startServer(loadConfig(settings(db.url)), { logger: false, migrate: false });
        try {
          await waitUntil('serve purged the 30-day history', async () => !(await events()).includes(sixty), 15_000);
          assert.deepEqual(await events(), [twenty, ten]);
        } finally {
          await server.stop();
        }

        let stopWorker = null as (() => Promise<void>) | null;
        let failed: unknown = null;
        const worker = runWorker(
          loadConfig(settings(db.url, { CUSTOPS_WEBHOOK_RETENTION_DAYS: '15' })),
          (stop) =>
            new Promise<void>((resolve) => {
              stopWorker = () => stop().then(resolve);
            }),
          { migrate: false },
        ).catch((err) => {
          failed = err;
        });
        try {
          await waitUntil(
            'worker purged the 15-day history',
            async () => {
              if (failed) throw failed;
              return !(await events()).includes(twenty);
            },
            15_000,
          );
          assert.deepEqual(await events(), [ten]);
          const kept = await db.handle.db.selectFrom('webhook_attempts').select('id').execute();
          assert.equal(kept.length, 1, 'attempts went with their deliveries');
        } finally {
          await waitUntil('worker running', () => stopWorker !== null || failed !== null, 15_000);
          await stopWorker?.();
          await worker;
        }
      } finally {
        await db.drop();
      }
    });

    test('webhooks purge: the same purge on demand, with the setting or --days; counts printed as JSON', async () => {
      const db = await emptyDatabase(engine, dir);
      try {
        await migrateToLatest(db.handle.db);
        const history = await deliveredHistory(db.handle, secretKey);
        const sixty = await history.delivered(60);
        const twenty = await history.delivered(20);
        const ten = await history.delivered(10);
        const events = async () => (await db.handle.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id);
        const purge = async (args: string[], extra: Record<string, string> = {}) => {
          return jsonLine(await cli(['webhooks', 'purge', ...args], settings(db.url, extra)), `webhooks purge ${args.join(' ')}`);
        };
        assert.deepEqual(await purge([], { CUSTOPS_WEBHOOK_RETENTION_DAYS: '0' }), { cutoff: null, events: 0, deliveries: 0, attempts: 0, batches: 0 });
        assert.deepEqual(await events(), [sixty, twenty, ten], '0 keeps everything');
        const before = Date.now();
        const result = await purge([]);
        const cutoff = Date.parse(result.cutoff);
        assert.ok(cutoff >= before - 30 * DAY && cutoff <= Date.now() - 30 * DAY, result.cutoff);
        assert.deepEqual({ ...result, cutoff: null }, { cutoff: null, events: 1, deliveries: 1, attempts: 1, batches: 2 }, 'the default 30 days');
        assert.deepEqual(await events(), [twenty, ten]);
        assert.deepEqual({ ...(await purge(['--days', '15'])), cutoff: null }, { cutoff: null, events: 1, deliveries: 1, attempts: 1, batches: 2 });
        assert.deepEqual(await events(), [ten]);
        for (const days of ['0', 'abc', '-3']) {
          const pattern = days === '-3' ? /^custops: Option '--days' argument is ambiguous/ : /^custops: --days must be a positive whole number/;
          assertFailed(await cli(['webhooks', 'purge', '--days', days], settings(db.url)), `--days ${days}`, pattern, 2);
        }
        assert.deepEqual(await events(), [ten]);
      } finally {
        await db.drop();
      }
    });

    test('CUSTOPS_PG_POOL_SIZE bounds the connections serve opens under concurrent load; two of them are its LISTEN connections', {
      skip: engine !== 'postgres' && 'PostgreSQL only',
    }, async () => {
      const db = await createTestDatabase('postgres');
      try {
        for (const size of [3, 6]) {
          // The serve's own connections are told apart on the server by their application_name.
          const app = `custops-ops-${randomBytes(4).toString('hex')}`;
          const withName = new URL(db.url);
          withName.searchParams.set('application_name', app);
          const url = withName.toString();
          const server = await startServer(loadConfig(settings(url, { CUSTOPS_PG_POOL_SIZE: String(size), CUSTOPS_DB_CONNECT_TIMEOUT_MS: '30000' })), {
            logger: false,
            migrate: false,
          });
          try {
            // Its LISTEN connections (webhook outbox, API key revocations) are held for as long as it runs.
            const pool = server.database.pool!;
            await waitUntil('the LISTEN connections', () => pool.totalCount - pool.idleCount >= 2, 10_000);
            // Each query reports its backend and how many connections the serve holds at that moment.
            const seen = await Promise.all(
              Array.from({ length: 4 * size }, () =>
                sql<{
                  pid: number;
                  n: number;
                }>`select pg_backend_pid() as pid, (select count(*)::int from pg_stat_activity where application_name = ${app}) as n, pg_sleep(0.05)`
                  .execute(server.database.db)
                  .then((r) => r.rows[0]),
              ),
            );
            const used = new Set(seen.map((s) => s.pid)).size;
            assert.ok(used >= size - 2 && used <= size, `${used} connections served queries`);
            assert.equal(Math.max(...seen.map((s) => s.n)), size, `all ${size} connections open under load, never more`);
          } finally {
            await server.stop();
          }
        }
        assert.throws(() => loadConfig({ CUSTOPS_PG_POOL_SIZE: '2' }), /^ConfigError: CUSTOPS_PG_POOL_SIZE: must be a whole number from 3 to 1000, got "2"$/);
      } finally {
        await db.drop();
      }
    });
  });
}

describe('trusted proxies', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('sqlite');
  });
  after(() => db.drop());

  /** The client address the request log line carries, for one request from `peer` with `X-Forwarded-For`. */
  async function loggedClient(trustProxy: string | undefined, peer: string, forwardedFor: string): Promise<string> {
    const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'info', ...(trustProxy ? { CUSTOPS_TRUST_PROXY: trustProxy } : {}) });
    const logged: { msg: string; req?: { remoteAddress?: string } }[] = [];
    const app = await buildApp(config, {
      database: db.handle,
      logger: { level: 'info', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor } });
      assert.equal(res.statusCode, 200);
      const incoming = logged.find((l) => l.msg === 'incoming request');
      assert.ok(incoming?.req, JSON.stringify(logged));
      return incoming.req.remoteAddress!;
    } finally {
      await app.close();
    }
  }

  test('the client IP in request logs comes from X-Forwarded-For only through a trusted proxy', async () => {
    assert.equal(await loggedClient('10.0.0.0/8', '10.1.2.3', '203.0.113.9'), '203.0.113.9', 'from a trusted proxy');
    assert.equal(
      await loggedClient('10.0.0.0/8, 127.0.0.1', '10.1.2.3', '198.51.100.7, 10.0.0.3'),
      '198.51.100.7',
      'the nearest address that is not a trusted proxy',
    );
    assert.equal(await loggedClient(undefined, '10.1.2.3', '203.0.113.9'), '10.1.2.3', 'unset: X-Forwarded-For is ignored');
    assert.equal(
      await loggedClient('192.168.0.0/16', '10.1.2.3', '203.0.113.9'),
      '10.1.2.3',
      'a peer that is not a trusted proxy cannot claim another address',
    );
    assert.equal(await loggedClient('::1', '::1', '2001:db8::5'), '2001:db8::5', 'IPv6');
  });
});
