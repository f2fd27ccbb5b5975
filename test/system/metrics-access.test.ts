import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { engines } from '../helpers/engines.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';

const TOKEN = 'a-metrics-token-of-some-length';

for (const engine of engines()) {
  describe(`/metrics access [${engine}]`, () => {
    let open: Harness;
    let guarded: Harness;
    before(async () => {
      open = await createHarness(engine);
      guarded = await createHarness(engine, { env: { CUSTOPS_METRICS_TOKEN: TOKEN } });
    });
    after(async () => {
      await open.close();
      await guarded.close();
    });

    test('without CUSTOPS_METRICS_TOKEN, /metrics does not exist: 404 not_found in the error model', async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
        const res = await open.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error, 'not_found');
        assert.equal(res.json().request_id, res.headers['x-request-id']);
      }
    });

    test('with a token: missing or wrong is 401 unauthorized with WWW-Authenticate, an API key does not do', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
        const res = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        assert.equal(res.statusCode, 401, String(authorization));
        assert.equal(res.json().error, 'unauthorized');
        assert.match(String(res.headers['www-authenticate']), /^Bearer/);
        assert.doesNotMatch(res.body, /custops_/);
      }
    });

    test('the right token reads every metric, the dependency state included', async () => {
      const res = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      for (const line of [
        'custops_dependency_up{dependency="database"} 1',
        'custops_dependency_outages_total{dependency="database"} 0',
        'custops_rate_limit_backend{backend="memory"} 1',
        'custops_rate_limit_backend{backend="redis"} 0',
        'custops_rate_limit_fallback_requests_total 0',
        'custops_key_revocations_unacknowledged_total 0',
      ]) {
        assert.ok(res.body.split('\n').includes(line), `${line} in:\n${res.body}`);
      }
      assert.match(res.body, /^custops_webhook_queue_depth \d+$/m);
    });

    test('a token shorter than 16 characters stops the start with one line naming the variable', () => {
      assert.throws(() => loadConfig({ CUSTOPS_METRICS_TOKEN: 'short' }), /^ConfigError: CUSTOPS_METRICS_TOKEN: must be at least 16/);
    });
  });
}
