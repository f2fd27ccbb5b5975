import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '../../src/index.ts';
import { engines } from '../helpers/engines.ts';
import { call, createTestAccount, type TestAccount } from '../helpers/harness.ts';
import { assertError } from '../helpers/route-checks.ts';
import { startReceiver } from './helpers/receiver.ts';
import { atClock, createEndpoint, emit, SAMPLE_ENTITIES, webhookEnv, type WebhookEnv } from './helpers/setup.ts';

const WON = SAMPLE_ENTITIES['deal.won'];

async function deliveryOf(env: WebhookEnv, a: TestAccount, endpointId: number) {
  const list = (await call(env.h, 'GET', '/api/v1/webhooks/deliveries', { key: a.key, query: { endpoint_id: endpointId } })).json();
  assert.equal(list.data.length, 1);
  return (await call(env.h, 'GET', `/api/v1/webhooks/deliveries/${list.data[0].id}`, { key: a.key })).json();
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

for (const engine of engines()) {
  describe(`webhook delivery failures and retries [${engine}]`, () => {
    let env: WebhookEnv;
    before(async () => {
      env = await webhookEnv(engine);
    });
    after(() => env.close());

    /** One endpoint, one deal.won event, one dispatcher pass. */
    async function oneDelivery(path: string, url = env.receiver.url(path), over: Parameters<WebhookEnv['dispatcher']>[0] = {}) {
      const a = await createTestAccount(env.h);
      const ep = await createEndpoint(env.h, a, url, ['deal.won']);
      await emit(env.h, a.accountId, 'deal.won', WON);
      const dispatcher = env.dispatcher(over);
      await dispatcher.drain();
      return { a, ep, dispatcher, delivery: await deliveryOf(env, a, ep.id) };
    }

    test('500 → failed with next_attempt_at → retried → sent', async () => {
      env.receiver.on('/flaky', (_r, n) => (n === 1 ? { status: 500, body: 'down' } : { status: 204 }));
      const { a, ep, dispatcher, delivery } = await oneDelivery('/flaky');
      const t0 = env.clock.now();
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.attempts, 1);
      assert.equal(delivery.response_status, 500);
      assert.equal(delivery.error, 'http_status');
      assert.equal(delivery.next_attempt_at, new Date(t0 + 5000).toISOString(), 'first retry after 5 s (jitter pinned to 0)');
      await dispatcher.drain();
      assert.equal((await deliveryOf(env, a, ep.id)).attempts, 1, 'not before it is due');
      env.clock.advance(5000);
      await dispatcher.drain();
      const after2 = await deliveryOf(env, a, ep.id);
      assert.equal(after2.status, 'sent');
      assert.equal(after2.attempts, 2);
      assert.equal(after2.next_attempt_at, null);
      assert.equal(after2.response_status, 204);
      assert.equal(after2.error, null);
      assert.deepEqual(
        after2.attempts_log.map((x: any) => [x.attempt_number, x.trigger, x.status_code, x.error, x.response_body]),
        [
          [1, 'scheduled', 500, 'http_status', 'down'],
          [2, 'scheduled', 204, null, ''],
        ],
      );
      const bodies = env.receiver.received.filter((r) => r.path === '/flaky');
      assert.equal(bodies.length, 2);
      assert.equal(bodies[0].headers['x-service-event-id'], bodies[1].headers['x-service-event-id'], 'the same event id on every retry');
      assert.ok(bodies[0].raw.equals(bodies[1].raw));
    });

    test('jitter stays within ±20% of the scheduled delay', async () => {
      env.receiver.on('/jitter', () => ({ status: 500 }));
      for (const [random, factor] of [
        [0, 0.8],
        [1, 1.2],
      ] as const) {
        const { delivery } = await oneDelivery('/jitter', undefined, { random: () => random });
        assert.equal(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at), 5000 * factor);
      }
    });

    test('time-out: no answer within the limit is a failure with status 0', async () => {
      env.receiver.on('/slow', () => ({ delayMs: 2500 }));
      const { delivery } = await oneDelivery('/slow');
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.response_status, 0);
      assert.equal(delivery.error, 'timeout');
      assert.ok(delivery.duration_ms >= 900 && delivery.duration_ms < 2000, String(delivery.duration_ms));
      assert.ok(delivery.next_attempt_at);
    });

    test('a redirect is not followed and counts as a failure', async () => {
      env.receiver.on('/moved', () => ({ status: 302, headers: { location: env.receiver.url('/target') } }));
      const { delivery } = await oneDelivery('/moved');
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.response_status, 302);
      assert.equal(delivery.error, 'redirect');
      assert.equal(env.receiver.received.filter((r) => r.path === '/target').length, 0);
    });

    test('connection refused', async () => {
      const { delivery } = await oneDelivery('', `https://127.0.0.1:${await closedPort()}/x`);
      assert.deepEqual([delivery.status, delivery.response_status, delivery.error], ['failed', 0, 'connection_refused']);
      assert.equal(delivery.attempts_log[0].status_code, 0);
    });

    test('TLS failure: a certificate no trusted CA signed', async () => {
      const rogue = await startReceiver({ key: env.pki.untrustedKey, cert: env.pki.untrustedCert });
      try {
        const { delivery } = await oneDelivery('', rogue.url('/x'));
        assert.deepEqual([delivery.status, delivery.response_status, delivery.error], ['failed', 0, 'tls']);
        assert.equal(rogue.received.length, 0);
      } finally {
        await rogue.close();
      }
    });

    test('410 disables the endpoint at once; nothing more is sent to it', async () => {
      env.receiver.on('/gone', () => ({ status: 410 }));
      const { a, ep, dispatcher, delivery } = await oneDelivery('/gone');
      assert.deepEqual([delivery.status, delivery.response_status, delivery.next_attempt_at], ['failed', 410, null]);
      const endpoint = (await call(env.h, 'GET', `/api/v1/webhooks/endpoints/${ep.id}`, { key: a.key })).json();
      assert.equal(endpoint.enabled, false);
      assert.equal(endpoint.disabled_reason, 'gone');
      await emit(env.h, a.accountId, 'deal.won', WON);
      await dispatcher.drain();
      assert.equal(env.receiver.received.filter((r) => r.path === '/gone').length, 1);
      assertError(await call(env.h, 'POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: a.key }), 409, 'conflict');
    });

    test('Retry-After is honoured within 1× to 2× of the scheduled delay', async () => {
      for (const [value, expected] of [
        ['8', 8000],
        ['1', 5000],
        ['600', 10_000],
      ] as const) {
        env.receiver.on(`/ra-${value}`, () => ({ status: 503, headers: { 'retry-after': value } }));
        const { delivery } = await oneDelivery(`/ra-${value}`);
        assert.equal(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at), expected, `Retry-After ${value}`);
      }
    });

    test('retry exhaustion: after the last attempt the delivery stays failed with no next attempt', async () => {
      env.receiver.on('/dead', () => ({ status: 500 }));
      const { a, ep, dispatcher } = await oneDelivery('/dead', undefined, { config: { webhookRetryScheduleSeconds: [1, 2] } });
      env.clock.advance(1000);
      await dispatcher.drain();
      env.clock.advance(2000);
      await dispatcher.drain();
      const d = await deliveryOf(env, a, ep.id);
      assert.deepEqual([d.status, d.attempts, d.next_attempt_at], ['failed', 3, null]);
      env.clock.advance(86_400_000);
      await dispatcher.drain();
      assert.equal((await deliveryOf(env, a, ep.id)).attempts, 3);
      const retry = await call(env.h, 'POST', `/api/v1/webhooks/deliveries/${d.id}/retry`, { key: a.key });
      assert.equal(retry.statusCode, 202);
      assert.equal(retry.json().next_attempt_at, new Date(env.clock.now()).toISOString());
      env.receiver.on('/dead', () => ({ status: 200 }));
      await dispatcher.drain();
      const manual = await deliveryOf(env, a, ep.id);
      assert.equal(manual.status, 'sent');
      assert.deepEqual(
        manual.attempts_log.map((x: any) => x.trigger),
        ['scheduled', 'scheduled', 'scheduled', 'manual'],
      );
    });

    test('5 days of failures disable the endpoint with a reason; PATCH re-enables', async () => {
      env.receiver.on('/failing', () => ({ status: 500 }));
      const { a, ep, dispatcher, delivery } = await oneDelivery('/failing');
      env.clock.advance(5 * 86_400_000 - 1000);
      await dispatcher.drain();
      let endpoint = (await call(env.h, 'GET', `/api/v1/webhooks/endpoints/${ep.id}`, { key: a.key })).json();
      assert.equal(endpoint.enabled, true, 'not yet 5 days');
      env.clock.advance(1000);
      await call(env.h, 'POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: a.key });
      await dispatcher.drain();
      endpoint = (await call(env.h, 'GET', `/api/v1/webhooks/endpoints/${ep.id}`, { key: a.key })).json();
      assert.equal(endpoint.enabled, false);
      assert.equal(endpoint.disabled_reason, 'failing_5_days');
      const re = (await call(env.h, 'PATCH', `/api/v1/webhooks/endpoints/${ep.id}`, { key: a.key, body: { enabled: true } })).json();
      assert.deepEqual([re.enabled, re.disabled_reason], [true, null]);
    });

    test('rotation: the old secret also signs for 24 hours, then only the new one', async () => {
      const { h, clock, receiver } = env;
      const a = await createTestAccount(h);
      const ep = await createEndpoint(h, a, receiver.url('/rotating'), ['deal.won']);
      const rotated = (await call(h, 'POST', `/api/v1/webhooks/endpoints/${ep.id}/rotate-secret`, { key: a.key })).json();
      const dispatcher = env.dispatcher();
      const deliver = async () => {
        await emit(h, a.accountId, 'deal.won', WON);
        await dispatcher.drain();
        return receiver.received.filter((r) => r.path === '/rotating').at(-1)!;
      };
      const check = (req: { raw: Buffer; headers: Record<string, unknown> }, secret: string, ok: boolean) => {
        const verify = () => atClock(clock, () => new Webhook(secret).verify(req.raw.toString('utf8'), req.headers as Record<string, string>));
        if (ok) verify();
        else assert.throws(verify);
      };
      clock.advance(3_600_000);
      const during = await deliver();
      assert.ok(verifyWebhookSignature(during.raw, during.headers as Record<string, string>, rotated.secret));
      assert.ok(verifyWebhookSignature(during.raw, during.headers as Record<string, string>, ep.secret), 'X-Service-Signature-Previous');
      assert.equal(during.headers['webhook-signature']!.toString().split(' ').length, 2);
      check(during, rotated.secret, true);
      check(during, ep.secret, true);
      clock.advance(23 * 3_600_000 - 1);
      assert.ok((await deliver()).headers['x-service-signature-previous'], 'still within 24 hours');
      clock.advance(1);
      const afterwards = await deliver();
      assert.equal(afterwards.headers['x-service-signature-previous'], undefined);
      assert.equal(afterwards.headers['webhook-signature']!.toString().split(' ').length, 1);
      assert.ok(verifyWebhookSignature(afterwards.raw, afterwards.headers as Record<string, string>, rotated.secret));
      assert.ok(!verifyWebhookSignature(afterwards.raw, afterwards.headers as Record<string, string>, ep.secret));
      check(afterwards, rotated.secret, true);
      check(afterwards, ep.secret, false);
    });

    test('an endpoint deleted while its attempt is in flight: the attempt ends quietly, nothing is left behind', async () => {
      env.receiver.on('/deleted', () => ({ delayMs: 300 }));
      const a = await createTestAccount(env.h);
      const ep = await createEndpoint(env.h, a, env.receiver.url('/deleted'), ['deal.won']);
      await emit(env.h, a.accountId, 'deal.won', WON);
      const dispatcher = env.dispatcher();
      const draining = dispatcher.drain();
      await env.receiver.waitFor((r) => r.some((x) => x.path === '/deleted'), 5000);
      assert.equal((await call(env.h, 'DELETE', `/api/v1/webhooks/endpoints/${ep.id}`, { key: a.key })).statusCode, 204);
      await draining;
      const left = await env.h.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', ep.id).execute();
      assert.deepEqual(left, []);
      assert.equal((await call(env.h, 'GET', '/api/v1/webhooks/deliveries', { key: a.key })).json().pagination.total, 0);
    });

    test('SSRF at delivery: a name that resolves to 127.0.0.1, and a loopback literal, are refused when private targets are not allowed', async () => {
      const rebinding: LookupFunction = ((host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (host !== 'rebind.test') return cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
        return options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
      }) as unknown as LookupFunction;
      const url = `https://rebind.test:${env.receiver.port}/rebind`;
      const blocked = await oneDelivery('/rebind', url, { lookup: rebinding, config: { webhookAllowPrivate: false } });
      assert.deepEqual([blocked.delivery.status, blocked.delivery.response_status, blocked.delivery.error], ['failed', 0, 'blocked_address']);
      const literal = await oneDelivery('/literal', undefined, { config: { webhookAllowPrivate: false } });
      assert.equal(literal.delivery.error, 'blocked_address');
      assert.equal(env.receiver.received.filter((r) => r.path === '/rebind' || r.path === '/literal').length, 0);
      const allowed = await oneDelivery('/rebind', url, { lookup: rebinding });
      assert.equal(allowed.delivery.status, 'sent', 'the same name is reachable when private targets are allowed');
    });
  });
}
