import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one series line of the Prometheus text, or 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

for (const engine of engines()) {
  describe(`HTTP request metrics [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { env: { CUSTOPS_METRICS_TOKEN: TOKEN } });
    });
    after(() => h.close());

    test('count and latency by method, route pattern and status', async () => {
      const a = await createTestAccount(h);
      const scrape = async () => (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      const before = await scrape();
      const org = (await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'Metered' } })).json();
      for (let i = 0; i < 3; i++) assert.equal((await call(h, 'GET', `/api/v1/orgs/${org.id}`, { key: a.key })).statusCode, 200);
      assert.equal((await call(h, 'GET', '/api/v1/orgs/999999999', { key: a.key })).statusCode, 404);
      assert.equal((await call(h, 'GET', '/no/such/route')).statusCode, 404);
      const text = await scrape();
      const ok = 'method="GET",route="/api/v1/orgs/:id",status="200"';
      assert.equal(sample(text, 'custops_http_requests_total', ok) - sample(before, 'custops_http_requests_total', ok), 3, 'by route pattern, not by id');
      const missing = 'method="GET",route="/api/v1/orgs/:id",status="404"';
      assert.equal(sample(text, 'custops_http_requests_total', missing) - sample(before, 'custops_http_requests_total', missing), 1);
      assert.equal(sample(text, 'custops_http_request_duration_seconds_count', ok) - sample(before, 'custops_http_request_duration_seconds_count', ok), 3);
      assert.ok(sample(text, 'custops_http_request_duration_seconds_sum', ok) > 0);
      assert.ok(sample(text, 'custops_http_requests_total', 'method="POST",route="/api/v1/orgs",status="201"') >= 1);
      assert.ok(!text.includes('/no/such/route'), 'unmatched URLs do not become series');
    });
  });
}
