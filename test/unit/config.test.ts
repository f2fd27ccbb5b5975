import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, DEFAULT_RETRY_SCHEDULE, loadConfig, withSecretKey } from '../../src/config.ts';

describe('configuration', () => {
  test('defaults match decisions.md', () => {
    const c = loadConfig({});
    assert.equal(c.databaseUrl, 'sqlite:./data/custops.db');
    assert.equal(c.dialect, 'sqlite');
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.redisUrl, null);
    assert.equal(c.rateLimitPerMinute, 60);
    assert.deepEqual(c.webhookRetryScheduleSeconds, [...DEFAULT_RETRY_SCHEDULE]);
    assert.equal(c.webhookTimeoutMs, 15000);
    assert.equal(c.webhookAllowPrivate, false);
    assert.equal(c.idempotencyTtlHours, 24);
    assert.equal(c.logLevel, 'info');
    assert.ok(Object.isFrozen(c));
  });

  test('each invalid variable stops start-up naming it', () => {
    const cases: Record<string, string>[] = [
      { DATABASE_URL: 'mysql://x' },
      { PORT: 'eighty' },
      { PORT: '70000' },
      { CUSTOPS_RATE_LIMIT_PER_MINUTE: '0' },
      { CUSTOPS_WEBHOOK_RETRY_SCHEDULE: '5,abc' },
      { CUSTOPS_WEBHOOK_TIMEOUT_MS: '-1' },
      { CUSTOPS_WEBHOOK_ALLOW_PRIVATE: 'maybe' },
      { CUSTOPS_IDEMPOTENCY_TTL_HOURS: '1.5' },
      { LOG_LEVEL: 'loud' },
      { REDIS_URL: 'localhost:6379' },
      { CUSTOPS_SECRET_KEY: 'too-short' },
    ];
    for (const env of cases) {
      const [name] = Object.keys(env);
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(name), name);
    }
  });

  test('secret key: hex or base64 of 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    assert.equal(loadConfig({ CUSTOPS_SECRET_KEY: hex }).secretKey!.toString('hex'), hex);
    const b64 = Buffer.alloc(32, 1).toString('base64');
    assert.deepEqual(loadConfig({ CUSTOPS_SECRET_KEY: b64 }).secretKey, Buffer.alloc(32, 1));
  });

  test('PostgreSQL refuses to start without CUSTOPS_SECRET_KEY; SQLite generates one into the data folder once', () => {
    assert.throws(() => withSecretKey(loadConfig({ DATABASE_URL: 'postgres://x/y' })), (e: unknown) => e instanceof ConfigError && e.variable === 'CUSTOPS_SECRET_KEY');
    const dir = mkdtempSync(join(tmpdir(), 'custops-config-'));
    const first = withSecretKey(loadConfig({ CUSTOPS_DATA_DIR: dir }));
    const again = withSecretKey(loadConfig({ CUSTOPS_DATA_DIR: dir }));
    assert.equal(first.secretKey!.length, 32);
    assert.deepEqual(first.secretKey, again.secretKey);
    assert.equal(statSync(join(dir, 'secret.key')).mode & 0o777, 0o600);
    assert.ok(readFileSync(join(dir, 'secret.key'), 'utf8').trim().length > 0);
  });

  test('flags override the environment', () => {
    const c = loadConfig({ PORT: '9000', HOST: '0.0.0.0' }, { port: 9100 });
    assert.equal(c.port, 9100);
    assert.equal(c.host, '0.0.0.0');
  });
});
