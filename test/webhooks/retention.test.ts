import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { dispatcherRegistry } from '../../src/modules/webhooks/metrics.ts';
import { purgeWebhookHistory, retentionCutoff, startRetention, type PurgeOptions } from '../../src/modules/webhooks/retention.ts';
import { engines } from '../helpers/engines.ts';
import { call, createTestAccount, type Harness } from '../helpers/harness.ts';
import { createEndpoint, emit, SAMPLE_ENTITIES, webhookEnv, type WebhookEnv } from './helpers/setup.ts';

const DAY = 86_400_000;

/** Runs `fn` with a fresh webhook environment (its own database: the purge spans every account). */
async function withEnv(engine: Parameters<typeof webhookEnv>[0], fn: (env: WebhookEnv) => Promise<void>): Promise<void> {
  const env = await webhookEnv(engine);
  try {
    await fn(env);
  } finally {
    await env.close();
  }
}

const count = async (h: Harness, table: 'events' | 'webhook_deliveries' | 'webhook_attempts') =>
  Number(
    (
      await h.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const deliveryOf = (h: Harness, eventId: number) => h.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();

/** Old history: `n` events of one account, each delivered (sent) to `url` at `at`. */
async function sentHistory(env: WebhookEnv, n: number, at: number, path = '/old') {
  const { h, clock, receiver } = env;
  const a = await createTestAccount(h);
  await createEndpoint(h, a, receiver.url(path), ['deal.won']);
  const now = clock.now();
  clock.set(at);
  const events = [];
  for (let i = 0; i < n; i++) events.push(await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']));
  await env.dispatcher().drain();
  clock.set(now);
  return { a, events };
}

for (const engine of engines()) {
  describe(`webhook retention [${engine}]`, () => {
    test('purges finished history older than the window, keeps young rows and every delivery still to be attempted with its event', async () => {
      await withEnv(engine, async (env) => {
        const { h, clock, receiver } = env;
        const T = clock.now();
        const old = T - 40 * DAY;
        const a = await createTestAccount(h);
        const b = await createTestAccount(h);
        let failing = true;
        receiver.on('/ok', () => ({ status: 200 }));
        receiver.on('/fail', () => ({ status: failing ? 500 : 200 }));
        receiver.on('/retry', () => ({ status: failing ? 500 : 200 }));
        const ok = await createEndpoint(h, a, receiver.url('/ok'), ['deal.won', 'deal.lost']);
        const fail = await createEndpoint(h, a, receiver.url('/fail'), ['deal.lost']);
        await createEndpoint(h, a, receiver.url('/retry'), ['support.ticket.opened']);
        await createEndpoint(h, b, receiver.url('/b'), ['deal.won']);

        // 40 days ago: delivered (sent), failed for good (no retry left), no subscriber at all, and another account's.
        clock.set(old);
        const sentOld = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        const failedOld = await emit(h, a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
        const requeued = await emit(h, a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
        const retriedRecently = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        const unsubscribed = await emit(h, a.accountId, 'deal.created', SAMPLE_ENTITIES['deal.created']);
        const otherAccount = await emit(h, b.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        await env.dispatcher({ config: { webhookRetryScheduleSeconds: [] } }).drain();
        // Pending, never attempted (an endpoint's backlog): its next attempt is an hour from "now".
        const pendingOld = await emit(h, a.accountId, 'support.ticket.closed', SAMPLE_ENTITIES['support.ticket.closed']);
        await env.dispatcher().drain();
        await h.db
          .insertInto('webhook_deliveries')
          .values({
            account_id: a.accountId,
            endpoint_id: ok.id,
            event_id: pendingOld.id,
            event_type: 'support.ticket.closed',
            status: 'pending',
            attempts: 0,
            next_attempt_at: T + 3_600_000,
            created_at: old,
          })
          .execute();
        // Exactly at the cutoff: not older than the window.
        clock.set(T - 30 * DAY);
        const atCutoff = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        await env.dispatcher().drain();
        // Yesterday: young history, and a manual retry of an old delivery.
        clock.set(T - DAY);
        const young = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        const [retried] = await deliveryOf(h, retriedRecently.id);
        assert.equal((await call(h, 'POST', `/api/v1/webhooks/deliveries/${retried.id}/retry`, { key: a.key })).statusCode, 202);
        await env.dispatcher().drain();
        clock.set(T);
        // Re-queued now (Retry), after failing for good 40 days ago.
        const requeuedFailed = (await deliveryOf(h, requeued.id)).find((d) => d.endpoint_id === fail.id)!;
        assert.deepEqual([requeuedFailed.status, requeuedFailed.next_attempt_at], ['failed', null]);
        assert.equal((await call(h, 'POST', `/api/v1/webhooks/deliveries/${requeuedFailed.id}/retry`, { key: a.key })).statusCode, 202);
        // Still retrying: failed once 40 days ago, its next attempt due 5 s later but not made since.
        clock.set(old);
        const retrying = await emit(h, a.accountId, 'support.ticket.opened', SAMPLE_ENTITIES['support.ticket.opened']);
        await env.dispatcher().drain();
        // Old but not yet fanned out (the dispatcher was down): written last, so no drain has seen it.
        const undispatched = await emit(h, a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
        clock.set(T);

        const purgedDeliveryIds = [
          ...(await deliveryOf(h, sentOld.id)),
          ...(await deliveryOf(h, failedOld.id)),
          ...(await deliveryOf(h, otherAccount.id)),
          ...(await deliveryOf(h, requeued.id)).filter((d) => d.endpoint_id === ok.id),
        ].map((d) => d.id);
        assert.equal(purgedDeliveryIds.length, 5);
        const attemptsBefore = await count(h, 'webhook_attempts');

        const result = await purgeWebhookHistory(h.db, retentionCutoff(T, 30)!);
        assert.deepEqual({ ...result, batches: 0 }, { deliveries: 5, attempts: 5, events: 4, batches: 0 });
        assert.equal(await count(h, 'webhook_attempts'), attemptsBefore - 5);

        const eventIds = (await h.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id);
        assert.deepEqual(
          eventIds,
          [requeued, retriedRecently, retrying, pendingOld, atCutoff, young, undispatched].map((e) => e.id).sort((x, y) => x - y),
          'old events with no delivery left are gone; events with a delivery to make, young ones and unsent ones stay',
        );
        const purgedEvents = await h.db
          .selectFrom('events')
          .select('id')
          .where(
            'id',
            'in',
            [sentOld, failedOld, unsubscribed, otherAccount].map((e) => e.id),
          )
          .execute();
        assert.deepEqual(purgedEvents, [], 'delivered, failed for good, never subscribed, and in any account');
        const remaining = await h.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', purgedDeliveryIds).execute();
        assert.deepEqual(remaining, []);
        const orphanAttempts = await h.db.selectFrom('webhook_attempts').select('id').where('delivery_id', 'in', purgedDeliveryIds).execute();
        assert.deepEqual(orphanAttempts, [], 'attempts go with their delivery');
        for (const id of purgedDeliveryIds.slice(0, 2)) {
          assert.equal((await call(h, 'GET', `/api/v1/webhooks/deliveries/${id}`, { key: a.key })).statusCode, 404);
        }
        // What stays reads whole through the API: the retrying delivery keeps its attempt log and payload.
        const [retryingDelivery] = await deliveryOf(h, retrying.id);
        assert.deepEqual([retryingDelivery.status, retryingDelivery.last_attempt_at, retryingDelivery.next_attempt_at], ['failed', old, old + 5000]);
        const detail = (await call(h, 'GET', `/api/v1/webhooks/deliveries/${retryingDelivery.id}`, { key: a.key })).json();
        assert.equal(detail.attempts_log.length, 1);
        assert.equal(detail.payload.id, retrying.public_id);
        assert.equal((await call(h, 'GET', `/api/v1/webhooks/deliveries/${retried.id}`, { key: a.key })).json().attempts_log.length, 2);
        assert.equal((await call(h, 'GET', '/api/v1/webhooks/deliveries', { key: b.key })).json().pagination.total, 0);

        // Nothing more to purge at the same time.
        assert.deepEqual(await purgeWebhookHistory(h.db, retentionCutoff(T, 30)!), { deliveries: 0, attempts: 0, events: 0, batches: 0 });

        // The kept work goes out afterwards with its own event's bytes.
        failing = false;
        clock.set(T + 2 * 3_600_000);
        const seen = receiver.received.length;
        await env.dispatcher().drain();
        const later = receiver.received.slice(seen);
        for (const [path, event] of [
          ['/retry', retrying],
          ['/ok', pendingOld],
          ['/fail', requeued],
          ['/ok', undispatched],
        ] as const) {
          const got = later.filter((r) => r.path === path && r.headers['webhook-id'] === event.public_id);
          assert.equal(got.length, 1, `${path} ${event.public_id}`);
          assert.equal(JSON.parse(got[0].raw.toString()).id, event.public_id);
        }
      });
    });

    test('batches are bounded: batch size 2 purges 5 old deliveries and their events in 3 batches each', async () => {
      await withEnv(engine, async (env) => {
        const T = env.clock.now();
        await sentHistory(env, 5, T - 40 * DAY);
        const young = await sentHistory(env, 2, T - 29 * DAY);
        const batches: { table: string; rows: number; attempts: number }[] = [];
        const options: PurgeOptions = { batchSize: 2, onBatch: (b) => void batches.push(b) };
        const result = await purgeWebhookHistory(env.h.db, retentionCutoff(T, 30)!, options);
        assert.deepEqual(batches, [
          { table: 'webhook_deliveries', rows: 2, attempts: 2 },
          { table: 'webhook_deliveries', rows: 2, attempts: 2 },
          { table: 'webhook_deliveries', rows: 1, attempts: 1 },
          { table: 'events', rows: 2, attempts: 0 },
          { table: 'events', rows: 2, attempts: 0 },
          { table: 'events', rows: 1, attempts: 0 },
        ]);
        assert.deepEqual(result, { deliveries: 5, attempts: 5, events: 5, batches: 6 });
        assert.deepEqual(
          (await env.h.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id),
          young.events.map((e) => e.id),
        );
        assert.equal(await count(env.h, 'webhook_deliveries'), 2);
      });
    });

    test('deliveries keep flowing while a purge runs: one is made and recorded between every two batches', async () => {
      await withEnv(engine, async (env) => {
        const { h, clock, receiver } = env;
        const T = clock.now();
        const history = await sentHistory(env, 30, T - 40 * DAY);
        // An old delivery still retrying, due now: the running dispatcher sends it during the purge.
        receiver.on('/late', (_r, n) => ({ status: n === 1 ? 500 : 200 }));
        await createEndpoint(h, history.a, receiver.url('/late'), ['deal.lost']);
        clock.set(T - 40 * DAY);
        const late = await emit(h, history.a.accountId, 'deal.lost', SAMPLE_ENTITIES['deal.lost']);
        await env.dispatcher({ config: { webhookRetryScheduleSeconds: [60] } }).drain();
        clock.set(T);
        const live = await sentHistory(env, 0, T, '/live');
        const dispatcher = env.dispatcher({ pollIntervalMs: 20 });
        await dispatcher.start();
        const sent: string[] = [];
        const result = await purgeWebhookHistory(h.db, retentionCutoff(T, 30)!, {
          batchSize: 4,
          onBatch: async () => {
            const e = await emit(h, live.a.accountId, 'deal.won', SAMPLE_ENTITIES['deal.won']);
            sent.push(e.public_id);
            await receiver.waitFor((r) => r.some((x) => x.path === '/live' && x.headers['webhook-id'] === e.public_id));
          },
        });
        assert.deepEqual({ deliveries: result.deliveries, events: result.events }, { deliveries: 30, events: 30 });
        assert.equal(result.batches, 16, '8 batches of deliveries (4 each, the last 2) and 8 of events');
        assert.equal(sent.length, 16);
        await receiver.waitFor((r) => r.filter((x) => x.path === '/late' && x.headers['webhook-id'] === late.public_id).length === 2);
        await dispatcher.stop();
        const got = receiver.received.filter((r) => r.path === '/live').map((r) => r.headers['webhook-id']);
        assert.deepEqual([...got].sort(), [...sent].sort(), 'each delivered once');
        const rows = await h.db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('events as e', 'e.id', 'd.event_id')
          .select(['e.public_id', 'd.status'])
          .where('d.account_id', '=', live.a.accountId)
          .execute();
        assert.deepEqual(
          rows.map((r) => r.status),
          sent.map(() => 'sent'),
        );
        const [lateDelivery] = await deliveryOf(h, late.id);
        assert.equal(lateDelivery.status, 'sent', 'the old retrying delivery was sent, with its event');
        assert.equal(await count(h, 'webhook_attempts'), 16 + 2);
      });
    });

    test('two purges at once (two pools on PostgreSQL) remove each row once and fail nowhere', async () => {
      await withEnv(engine, async (env) => {
        const T = env.clock.now();
        await sentHistory(env, 9, T - 40 * DAY);
        const second = engine === 'postgres' ? openDatabase(env.h.database.url, { poolSize: 2 }) : env.h.database.handle;
        try {
          const cutoff = retentionCutoff(T, 30)!;
          const [x, y] = await Promise.all([purgeWebhookHistory(env.h.db, cutoff, { batchSize: 2 }), purgeWebhookHistory(second.db, cutoff, { batchSize: 2 })]);
          assert.deepEqual([x.deliveries + y.deliveries, x.attempts + y.attempts, x.events + y.events], [9, 9, 9]);
          assert.deepEqual([await count(env.h, 'events'), await count(env.h, 'webhook_deliveries'), await count(env.h, 'webhook_attempts')], [0, 0, 0]);
        } finally {
          if (second !== env.h.database.handle) await second.close();
        }
      });
    });

    test('CUSTOPS_WEBHOOK_RETENTION_DAYS: the window of the periodic purge (0 keeps everything), counted in /metrics', async () => {
      await withEnv(engine, async (env) => {
        const { h, clock } = env;
        const T = clock.now();
        await sentHistory(env, 2, T - 31 * DAY);
        await sentHistory(env, 1, T - 29 * DAY);
        const metric = async (table: string) => {
          const m = (await dispatcherRegistry.getSingleMetric('custops_webhook_retention_purged_total')!.get()).values.find((v) => v.labels.table === table);
          return m?.value ?? 0;
        };
        const before = { deliveries: await metric('webhook_deliveries'), attempts: await metric('webhook_attempts'), events: await metric('events') };
        const keep = startRetention({
          database: h.database.handle,
          config: loadConfig({ CUSTOPS_WEBHOOK_RETENTION_DAYS: '0' }),
          clock,
          firstDelayMs: 3_600_000,
        });
        assert.deepEqual(await keep.runOnce(), { deliveries: 0, attempts: 0, events: 0, batches: 0 });
        await keep.stop();
        assert.equal(await count(h, 'events'), 3);
        const purge = startRetention({ database: h.database.handle, config: loadConfig({}), clock, firstDelayMs: 3_600_000 });
        const result = await purge.runOnce();
        await purge.stop();
        assert.deepEqual({ ...result, batches: 0 }, { deliveries: 2, attempts: 2, events: 2, batches: 0 }, 'the default window is 30 days');
        assert.equal(await count(h, 'events'), 1);
        assert.deepEqual(
          { deliveries: await metric('webhook_deliveries'), attempts: await metric('webhook_attempts'), events: await metric('events') },
          { deliveries: before.deliveries + 2, attempts: before.attempts + 2, events: before.events + 2 },
        );
        assert.match(await dispatcherRegistry.metrics(), /custops_webhook_retention_purged_total\{table="events"\} \d+/);
        assert.equal(loadConfig({ CUSTOPS_WEBHOOK_RETENTION_DAYS: '7' }).webhookRetentionDays, 7);
      });
    });
  });
}

describe('webhook retention setting', () => {
  test('a bad CUSTOPS_WEBHOOK_RETENTION_DAYS stops the start in one line naming it', () => {
    for (const value of ['-1', '1.5', 'thirty', '36501']) {
      assert.throws(
        () => loadConfig({ CUSTOPS_WEBHOOK_RETENTION_DAYS: value }),
        (e: unknown) => e instanceof ConfigError && e.message === `CUSTOPS_WEBHOOK_RETENTION_DAYS: must be a whole number from 0 to 36500, got "${value}"`,
        value,
      );
    }
    assert.equal(loadConfig({}).webhookRetentionDays, 30);
    assert.equal(loadConfig({ CUSTOPS_WEBHOOK_RETENTION_DAYS: '0' }).webhookRetentionDays, 0);
  });
});
