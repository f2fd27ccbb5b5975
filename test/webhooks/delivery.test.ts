import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../../src/modules/events/catalog.ts';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../src/index.ts';
import { engines } from '../helpers/engines.ts';
import { call, createTestAccount } from '../helpers/harness.ts';
import { assertError } from '../helpers/route-checks.ts';
import { atClock, createEndpoint, emit, SAMPLE_ENTITIES, webhookEnv, type WebhookEnv } from './helpers/setup.ts';

for (const engine of engines()) {
  describe(`webhook delivery [${engine}]`, () => {
    let env: WebhookEnv;
    before(async () => {
      env = await webhookEnv(engine);
    });
    after(() => env.close());

    test('each of the seven event types arrives with its payload, every header and verifiable signatures', async () => {
      const { h, receiver, clock } = env;
      const a = await createTestAccount(h);
      const ep = await createEndpoint(h, a, receiver.url('/all'), [...EVENT_TYPES]);
      const emitted = [];
      for (const type of EVENT_TYPES) emitted.push({ type, ...(await emit(h, a.accountId, type, SAMPLE_ENTITIES[type] as never)) });
      await env.dispatcher().drain();
      const got = receiver.received.filter((r) => r.path === '/all');
      assert.equal(got.length, 7);
      const deliveries = await h.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', ep.id).execute();
      for (const e of emitted) {
        const req = got.find((r) => r.headers['x-service-event-id'] === e.public_id)!;
        assert.ok(req, `${e.type} arrived`);
        const stored = await h.db.selectFrom('events').select('payload').where('id', '=', e.id).executeTakeFirstOrThrow();
        assert.equal(req.raw.toString('utf8'), stored.payload, 'the exact stored bytes are sent');
        assert.deepEqual(JSON.parse(req.raw.toString()), {
          id: e.public_id,
          event_type: e.type,
          org_id: 7,
          timestamp: new Date(clock.now()).toISOString(),
          ...SAMPLE_ENTITIES[e.type],
        });
        const delivery = deliveries.find((d) => d.event_id === e.id)!;
        const ts = String(Math.floor(clock.now() / 1000));
        assert.equal(req.headers['content-type'], 'application/json');
        assert.equal(req.headers['user-agent'], 'service/1.0');
        assert.equal(req.headers['x-service-event'], e.type);
        assert.equal(req.headers['x-service-delivery'], String(delivery.id));
        assert.equal(req.headers['webhook-id'], e.public_id);
        assert.equal(req.headers['webhook-timestamp'], ts);
        assert.equal(req.headers['x-service-signature-previous'], undefined);
        const hex = createHmac('sha256', Buffer.from(ep.secret, 'utf8')).update(req.raw).digest('hex');
        assert.equal(req.headers['x-service-signature'], hex);
        const std = createHmac('sha256', Buffer.from(ep.secret.slice(6), 'base64'))
          .update(`${e.public_id}.${ts}.`)
          .update(req.raw)
          .digest('base64');
        assert.equal(req.headers['webhook-signature'], `v1,${std}`);
        assert.ok(verifyWebhookSignature(req.raw, req.headers as Record<string, string>, ep.secret));
        assert.ok(
          !verifyWebhookSignature(Buffer.from(req.raw.toString().replace('"org_id":7', '"org_id":8')), req.headers as Record<string, string>, ep.secret),
        );
        assert.ok(verifyStandardWebhook(req.raw, req.headers as Record<string, string>, ep.secret, { now: clock.now() }));
        assert.ok(!verifyStandardWebhook(req.raw, req.headers as Record<string, string>, ep.secret, { now: clock.now() + 301_000 }), '300 s tolerance');
        atClock(clock, () => new Webhook(ep.secret).verify(req.raw.toString('utf8'), req.headers as Record<string, string>));
        assert.equal(delivery.status, 'sent');
      }
    });

    test('subscriptions filter; disabled endpoints and other accounts receive nothing', async () => {
      const { h, receiver } = env;
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      await createEndpoint(h, a, receiver.url('/f-won'), ['deal.won']);
      await createEndpoint(h, a, receiver.url('/f-support'), ['support.ticket.opened', 'support.log.created']);
      await createEndpoint(h, a, receiver.url('/f-disabled'), [...EVENT_TYPES], { enabled: false });
      await createEndpoint(h, b, receiver.url('/f-other'), [...EVENT_TYPES]);
      await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      await emit(h, a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
      await emit(h, a.accountId, 'support.log.created', SAMPLE_ENTITIES['support.log.created']);
      await env.dispatcher().drain();
      const at = (p: string) => receiver.received.filter((r) => r.path === p).map((r) => r.headers['x-service-event']);
      assert.deepEqual(at('/f-won'), ['deal.won']);
      assert.deepEqual(at('/f-support'), ['support.log.created']);
      assert.deepEqual(at('/f-disabled'), []);
      assert.deepEqual(at('/f-other'), []);
      const undispatched = await h.db.selectFrom('events').select('id').where('dispatched_at', 'is', null).execute();
      assert.deepEqual(undispatched, [], 'every event is fanned out, even with no subscriber');
    });

    test('the delivery log: fields, filters, limit alias, pagination, attempts, tenancy', async () => {
      const { h, receiver, clock } = env;
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      receiver.on('/log-bad', () => ({ status: 500, body: 'boom' }));
      const good = await createEndpoint(h, a, receiver.url('/log-good'), ['deal.won', 'deal.lost']);
      const bad = await createEndpoint(h, a, receiver.url('/log-bad'), ['deal.won']);
      const otherEp = await createEndpoint(h, b, receiver.url('/log-other'), ['deal.won']);
      const day1 = clock.now();
      const e1 = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      clock.advance(86_400_000);
      const e2 = await emit(h, a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
      await emit(h, b.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      await env.dispatcher().drain();
      const list = async (query: Record<string, string | number> = {}, key = a.key) => call(h, 'GET', '/api/v1/webhooks/deliveries', { key, query });
      const all = (await list()).json();
      assert.equal(all.pagination.total, 3);
      assert.deepEqual(
        all.data.map((d: any) => [d.event_id, d.endpoint_id]),
        [
          [e2.public_id, good.id],
          [e1.public_id, bad.id],
          [e1.public_id, good.id],
        ],
      );
      const failed = all.data[1];
      assert.deepEqual(failed, {
        id: failed.id,
        endpoint_id: bad.id,
        event_id: e1.public_id,
        event_type: 'deal.won',
        status: 'failed',
        attempts: 1,
        next_attempt_at: new Date(clock.now() + 5000).toISOString(),
        response_status: 500,
        error: 'http_status',
        duration_ms: failed.duration_ms,
        created_at: new Date(day1).toISOString(),
        last_attempt_at: new Date(clock.now()).toISOString(),
        test: false,
      });
      const ids = async (q: Record<string, string | number>) => (await list(q)).json().data.map((d: any) => d.id);
      assert.deepEqual(await ids({ status: 'failed' }), [failed.id]);
      assert.deepEqual(
        (await list({ event_type: 'deal.lost' })).json().data.map((d: any) => d.event_id),
        [e2.public_id],
      );
      assert.deepEqual(await ids({ endpoint_id: bad.id }), [failed.id]);
      assert.equal((await list({ from: new Date(day1 + 1).toISOString() })).json().pagination.total, 1);
      assert.equal((await list({ to: new Date(day1).toISOString().slice(0, 10) })).json().pagination.total, 2, 'a bare date covers the day');
      const limited = (await list({ limit: 2 })).json();
      assert.equal(limited.data.length, 2);
      assert.deepEqual(limited.pagination, { page: 1, per_page: 2, total: 3, pages: 2, has_next: true, has_prev: false });
      assert.equal((await list({ limit: 1, per_page: 2 })).json().pagination.per_page, 1, 'the smaller of limit and per_page');
      assert.deepEqual(
        (await list({ direction: 'asc' })).json().data.map((d: any) => d.id),
        [...all.data.map((d: any) => d.id)].reverse(),
      );
      assert.deepEqual(
        (await list({ page: 2, per_page: 2 })).json().data.map((d: any) => d.id),
        [all.data[2].id],
      );
      for (const [q, field] of [
        [{ status: 'done' }, 'status'],
        [{ event_type: 'customer.created' }, 'event_type'],
        [{ endpoint_id: 'x' }, 'endpoint_id'],
        [{ from: '2026-02-30' }, 'from'],
        [{ to: 'soon' }, 'to'],
        [{ limit: 0 }, 'limit'],
        [{ limit: 101 }, 'limit'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
      ] as const) {
        assert.ok(assertError(await list(q), 422, 'validation_error').fields[field], JSON.stringify(q));
      }
      assertError(await list({ endpoint_id: otherEp.id }), 404, 'webhook_endpoint_not_found');
      assert.equal((await list({}, b.key)).json().pagination.total, 1);
      const detail = await call(h, 'GET', `/api/v1/webhooks/deliveries/${failed.id}`, { key: a.key });
      assert.equal(detail.statusCode, 200);
      const { attempts_log, payload, request_headers, ...record } = detail.json();
      assert.deepEqual(record, failed);
      // The exact payload sent, and the headers rebuilt with the signatures masked.
      assert.equal(payload.id, e1.public_id);
      assert.equal(request_headers['x-service-event-id'], e1.public_id);
      assert.equal(request_headers['x-service-delivery'], String(failed.id));
      assert.equal(request_headers['x-service-signature'], '••••••••');
      assert.deepEqual(attempts_log, [
        {
          id: attempts_log[0].id,
          attempt_number: 1,
          trigger: 'scheduled',
          status_code: 500,
          error: 'http_status',
          response_body: 'boom',
          duration_ms: attempts_log[0].duration_ms,
          requested_at: new Date(clock.now()).toISOString(),
        },
      ]);
      assertError(await call(h, 'GET', `/api/v1/webhooks/deliveries/${failed.id}`, { key: b.key }), 404, 'webhook_delivery_not_found');
      assertError(await call(h, 'POST', `/api/v1/webhooks/deliveries/${failed.id}/retry`, { key: b.key }), 404, 'webhook_delivery_not_found');
      assertError(await call(h, 'GET', '/api/v1/webhooks/deliveries/99999999', { key: a.key }), 404, 'webhook_delivery_not_found');
    });

    test('a started dispatcher, woken after a commit, picks the new event up without waiting for its poll', async () => {
      const { h, receiver } = env;
      const a = await createTestAccount(h);
      await createEndpoint(h, a, receiver.url('/prompt'), ['deal.won']);
      const d = env.dispatcher({ pollIntervalMs: 60_000 });
      await d.start();
      await new Promise((r) => setTimeout(r, 100));
      await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      d.wake(); // what the write path does after a commit that queued deliveries
      // The poll comes only after 60 s: an arrival before it is the wake-up's doing.
      await receiver.waitFor((r) => r.some((x) => x.path === '/prompt'), 30_000);
      await d.stop();
    });

    test('a slow receiver does not delay a fast one (per-endpoint cap)', async () => {
      const { h, receiver } = env;
      const a = await createTestAccount(h);
      let holding = true;
      receiver.on('/slow', () => (holding ? { hold: true } : {}));
      await createEndpoint(h, a, receiver.url('/slow'), ['deal.won']);
      await createEndpoint(h, a, receiver.url('/fast'), ['deal.lost']);
      for (let i = 0; i < 20; i++) await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      for (let i = 0; i < 20; i++) await emit(h, a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
      const d = env.dispatcher({ perEndpointConcurrency: 2, globalConcurrency: 6, pollIntervalMs: 60_000 });
      await d.start();
      try {
        // The slow receiver answers nothing until released: every fast delivery still arrives.
        await receiver.waitFor((r) => r.filter((x) => x.path === '/fast').length === 20, 30_000);
        assert.ok(receiver.received.filter((x) => x.path === '/slow').length <= 4, 'the slow one holds at most its own slots');
        assert.ok(receiver.inFlight() >= 1, 'the slow attempts were still unanswered');
      } finally {
        holding = false;
        receiver.release();
        await d.stop();
      }
      const slowSent = receiver.received.filter((x) => x.path === '/slow').length;
      assert.ok(slowSent >= 2, 'stop() finished the attempts in flight');
    });

    test('an endpoint that answers well while its queue waits grows past its own slots, up to 4x, within half the global cap', async () => {
      const { h, receiver } = env;
      const a = await createTestAccount(h);
      receiver.on('/busy', () => ({ delayMs: 30 }));
      receiver.on('/capped', () => ({ delayMs: 30 }));
      await createEndpoint(h, a, receiver.url('/busy'), ['deal.won']);
      for (let i = 0; i < 150; i++) await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      const d = env.dispatcher({ perEndpointConcurrency: 2, globalConcurrency: 40, pollIntervalMs: 60_000 });
      await d.start();
      try {
        await receiver.waitFor((r) => r.filter((x) => x.path === '/busy').length === 150, 30_000);
      } finally {
        await d.stop();
      }
      const peak = receiver.peak('/busy');
      assert.ok(peak > 2, `grew past its own 2 slots (peak ${peak})`);
      assert.ok(peak <= 8, `never past 4x its own slots (peak ${peak})`);

      // A global cap of 6: slots past an endpoint's own are taken only while fewer than 3 are busy.
      const b = await createTestAccount(h);
      await createEndpoint(h, b, receiver.url('/capped'), ['deal.lost']);
      for (let i = 0; i < 80; i++) await emit(h, b.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
      const small = env.dispatcher({ perEndpointConcurrency: 2, globalConcurrency: 6, pollIntervalMs: 60_000 });
      await small.start();
      try {
        await receiver.waitFor((r) => r.filter((x) => x.path === '/capped').length === 80, 30_000);
      } finally {
        await small.stop();
      }
      assert.equal(receiver.peak('/capped'), 3, 'grew past its own 2 slots, and no further than half the global cap of 6');
    });

    test('an endpoint that fails never takes more than its own slots, however long its queue', async () => {
      const { h, receiver } = env;
      const a = await createTestAccount(h);
      receiver.on('/failing', () => ({ status: 503, delayMs: 30 }));
      await createEndpoint(h, a, receiver.url('/failing'), ['deal.won']);
      for (let i = 0; i < 60; i++) await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
      const d = env.dispatcher({ perEndpointConcurrency: 2, globalConcurrency: 40, pollIntervalMs: 60_000 });
      await d.start();
      try {
        await receiver.waitFor((r) => r.filter((x) => x.path === '/failing').length === 60, 30_000);
      } finally {
        await d.stop();
      }
      assert.equal(receiver.peak('/failing'), 2);
    });
  });
}
