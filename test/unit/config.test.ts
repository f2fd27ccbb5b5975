import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, DEFAULT_RETRY_SCHEDULE, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  test('defaults are the documented ones', () => {
    const c = loadConfig({});
    assert.equal(c.databaseUrl, 'sqlite:./data/custops.db');
    assert.equal(c.dialect, 'sqlite');
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.redisUrl, null);
    assert.equal(c.rateLimitPerMinute, 60);
    assert.equal(c.passwordCost, 15);
    assert.deepEqual(c.webhookRetryScheduleSeconds, [...DEFAULT_RETRY_SCHEDULE]);
    assert.equal(c.webhookTimeoutMs, 15000);
    assert.equal(c.webhookAllowPrivate, false);
    assert.equal(c.webhookEndpointConcurrency, 10);
    assert.equal(c.webhookConcurrency, 100);
    assert.equal(c.idempotencyTtlHours, 24);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.pgPoolSize, 10);
    assert.deepEqual(c.trustProxy, []);
    assert.equal(c.dataDir, null);
    assert.equal(c.sqliteCheckpointThread, true);
    assert.ok(Object.isFrozen(c));
  });

  test('each invalid variable stops start-up naming it', () => {
    const cases: Record<string, string>[] = [
      { DATABASE_URL: 'mysql://x' },
      { PORT: 'eighty' },
      { PORT: '70000' },
      { CUSTOPS_RATE_LIMIT_PER_MINUTE: '0' },
      { CUSTOPS_PASSWORD_COST: '9' },
      { CUSTOPS_PASSWORD_COST: '19' },
      { CUSTOPS_WEBHOOK_RETRY_SCHEDULE: '5,abc' },
      { CUSTOPS_WEBHOOK_TIMEOUT_MS: '-1' },
      { CUSTOPS_WEBHOOK_ALLOW_PRIVATE: 'maybe' },
      { CUSTOPS_WEBHOOK_ENDPOINT_CONCURRENCY: '0' },
      { CUSTOPS_WEBHOOK_ENDPOINT_CONCURRENCY: '1001' },
      { CUSTOPS_WEBHOOK_CONCURRENCY: '0' },
      { CUSTOPS_WEBHOOK_CONCURRENCY: 'many' },
      { CUSTOPS_IDEMPOTENCY_TTL_HOURS: '1.5' },
      { LOG_LEVEL: 'loud' },
      { REDIS_URL: 'localhost:6379' },
      { CUSTOPS_SECRET_KEY: 'too-short' },
      { CUSTOPS_PG_POOL_SIZE: '0' },
      { CUSTOPS_TRUST_PROXY: '10.0.0.0/33' },
      { CUSTOPS_TRUST_PROXY: '127.0.0.1,proxy.internal' },
      { CUSTOPS_SQLITE_CHECKPOINT_THREAD: 'sometimes' },
      { CUSTOPS_SQLITE_CHECKPOINT_THREAD: '2' },
      { CUSTOPS_IDLE_RELEASE_S: '-1' },
      { CUSTOPS_IDLE_RELEASE_S: '3601' },
      { CUSTOPS_IDLE_RELEASE_S: '2.5' },
      { CUSTOPS_IDLE_RELEASE_S: 'soon' },
    ];
    for (const env of cases) {
      const [name] = Object.keys(env);
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(name),
        name,
      );
    }
  });

  test('secret key: hex or base64 of 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    assert.equal(loadConfig({ CUSTOPS_SECRET_KEY: hex }).secretKey!.toString('hex'), hex);
    const b64 = Buffer.alloc(32, 1).toString('base64');
    assert.deepEqual(loadConfig({ CUSTOPS_SECRET_KEY: b64 }).secretKey, Buffer.alloc(32, 1));
  });

  test('the idle release interval: 5 s by default, 0 turns it off', () => {
    assert.equal(loadConfig({}).idleReleaseSeconds, 5);
    assert.equal(loadConfig({ CUSTOPS_IDLE_RELEASE_S: '0' }).idleReleaseSeconds, 0);
    assert.equal(loadConfig({ CUSTOPS_IDLE_RELEASE_S: '30' }).idleReleaseSeconds, 30);
  });

  test('pool size and trusted proxies are read', () => {
    const c = loadConfig({ CUSTOPS_PG_POOL_SIZE: '25', CUSTOPS_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' });
    assert.equal(c.pgPoolSize, 25);
    assert.deepEqual(c.trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1']);
  });

  test('the SQLite checkpoint thread is on unless switched off', () => {
    for (const off of ['0', 'false', 'no', 'NO']) assert.equal(loadConfig({ CUSTOPS_SQLITE_CHECKPOINT_THREAD: off }).sqliteCheckpointThread, false, off);
    for (const on of ['1', 'true', 'yes']) assert.equal(loadConfig({ CUSTOPS_SQLITE_CHECKPOINT_THREAD: on }).sqliteCheckpointThread, true, on);
  });

  test('flags override the environment', () => {
    const c = loadConfig({ PORT: '9000', HOST: '0.0.0.0' }, { port: 9100 });
    assert.equal(c.port, 9100);
    assert.equal(c.host, '0.0.0.0');
  });
});
