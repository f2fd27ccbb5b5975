import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import * as pkg from '../../src/index.ts';
import { engines } from '../helpers/engines.ts';
import { createTestAccount } from '../helpers/harness.ts';
import { createEndpoint, emit, SAMPLE_ENTITIES, webhookEnv, type WebhookEnv } from './helpers/setup.ts';

function metric(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name} `)));
  assert.ok(line, `${name}${labels} in:\n${text}`);
  return Number(line.split(' ').at(-1));
}

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

for (const engine of engines()) {
  describe(`GET /metrics [${engine}]`, () => {
    let env: WebhookEnv;
    before(async () => {
      env = await webhookEnv(engine, { CUSTOPS_METRICS_TOKEN: METRICS_TOKEN });
    });
    after(() => env.close());

    test('deliveries by status, queue depth, oldest pending age and attempt latency', async () => {
      const { h, receiver, clock } = env;
      const a = await createTestAccount(h);
      receiver.on('/m-bad', () => ({ status: 500 }));
      await createEndpoint(h, a, receiver.url('/m-good'), ['deal.won']);
      await createEndpoint(h, a, receiver.url('/m-bad'), ['deal.won']);
      await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      const scrape = async () => {
        const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^text\/plain/);
        return res.body;
      };
      let text = await scrape();
      assert.equal(metric(text, 'custops_webhook_queue_depth'), 1, 'one event not yet fanned out');
      clock.advance(4000);
      assert.equal(metric(await scrape(), 'custops_webhook_oldest_pending_age_seconds'), 4);
      await env.dispatcher().drain();
      text = await scrape();
      assert.equal(metric(text, 'custops_webhook_deliveries', '{status="sent"}'), 1);
      assert.equal(metric(text, 'custops_webhook_deliveries', '{status="failed"}'), 1);
      assert.equal(metric(text, 'custops_webhook_deliveries', '{status="pending"}'), 0);
      assert.equal(metric(text, 'custops_webhook_queue_depth'), 0);
      assert.equal(metric(text, 'custops_webhook_oldest_pending_age_seconds'), 0);
      assert.ok(metric(text, 'custops_webhook_attempt_duration_seconds_count') >= 2);
      assert.ok(metric(text, 'custops_webhook_attempts_total', '{outcome="failed",error="http_status"}') >= 1);
      clock.advance(7000);
      text = await scrape();
      assert.equal(metric(text, 'custops_webhook_queue_depth'), 1, 'the retry is due');
      assert.equal(metric(text, 'custops_webhook_oldest_pending_age_seconds'), 2);
    });

    test('the package exports the receiver-side verifiers', () => {
      const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
      const body = '{"id":"evt_1","event_type":"deal.won"}';
      const headers = new Webhook(secret).sign('evt_1', new Date(), body);
      assert.equal(typeof pkg.verifyWebhookSignature, 'function');
      const now = Date.now();
      const std = {
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(Math.floor(now / 1000)),
        'webhook-signature': new Webhook(secret).sign('evt_1', new Date(now), body),
      };
      assert.ok(pkg.verifyStandardWebhook(body, std, secret));
      assert.ok(!pkg.verifyStandardWebhook(body + ' ', std, secret));
      assert.ok(!pkg.verifyStandardWebhook(body, { ...std, 'webhook-timestamp': String(Math.floor(now / 1000) - 301) }, secret));
      assert.ok(typeof headers === 'string');
      const hex = (s: string) => pkg.verifyWebhookSignature(body, { 'X-Service-Signature': s }, secret);
      assert.ok(!hex('00'));
      assert.ok(!hex(''));
    });
  });
}
