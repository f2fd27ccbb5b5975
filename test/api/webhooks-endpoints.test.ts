import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { decryptSecret } from '../../src/lib/crypto.ts';
import { EVENT_TYPES } from '../../src/modules/events/catalog.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';

const BASE = '/api/v1/webhooks/endpoints';
const body = (over: Record<string, unknown> = {}) => ({
  name: 'CRM sync',
  url: 'https://example.com/hooks/custops',
  event_types: ['deal.won', 'deal.lost'],
  ...over,
});

async function create(h: Harness, a: TestAccount, over: Record<string, unknown> = {}) {
  const res = await call(h, 'POST', BASE, { key: a.key, body: body(over) });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const BLOCKED = [
  'https://127.0.0.1/h',
  'https://127.9.8.7/h',
  'https://localhost/h',
  'https://api.localhost/h',
  'https://2130706433/h',
  'https://0x7f.1/h',
  'https://10.1.2.3/h',
  'https://172.16.0.1/h',
  'https://172.31.255.255/h',
  'https://192.168.1.1/h',
  'https://169.254.1.1/h',
  'https://169.254.169.254/latest/meta-data',
  'https://metadata.google.internal/h',
  'https://100.100.100.200/h',
  'https://100.64.0.1/h',
  'https://100.127.255.254/h',
  'https://224.0.0.1/h',
  'https://239.255.255.250/h',
  'https://0.0.0.0/h',
  'https://0.1.2.3/h',
  'https://240.0.0.1/h',
  'https://255.255.255.255/h',
  'https://192.0.2.10/h',
  'https://198.18.0.1/h',
  'https://[::1]/h',
  'https://[::]/h',
  'https://[fe80::1]/h',
  'https://[fc00::1]/h',
  'https://[fd12:3456::1]/h',
  'https://[ff02::1]/h',
  'https://[fec0::1]/h',
  'https://[::ffff:127.0.0.1]/h',
  'https://[::ffff:10.0.0.1]/h',
  'https://[::ffff:169.254.169.254]/h',
  'https://[::127.0.0.1]/h',
  'https://[2002:7f00:1::1]/h',
  'https://[2002:c0a8:101::1]/h',
  'https://[64:ff9b::7f00:1]/h',
  'https://[64:ff9b::a00:1]/h',
  'https://[64:ff9b:1::1]/h',
  'https://[fd00:ec2::254]/h',
  'https://[2001:db8::1]/h',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/h',
];
const ALLOWED = [
  'https://8.8.8.8/h',
  'https://[2606:4700:4700::1111]/h',
  'https://[::ffff:8.8.8.8]/h',
  'https://[64:ff9b::808:808]/h',
  'https://[2002:808:808::1]/h',
  'https://example.com:8443/x?y=1',
];

for (const engine of engines()) {
  describe(`webhook endpoints [${engine}]`, () => {
    let h: Harness;
    const clock = new FixedClock('2026-11-20T10:00:00.000Z');
    before(async () => {
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    test('POST creates with 201, Location and the secret once; it is stored encrypted', async () => {
      const a = await createTestAccount(h);
      const res = await call(h, 'POST', BASE, { key: a.key, body: body() });
      assert.equal(res.statusCode, 201);
      const created = res.json();
      assert.equal(res.headers.location, `${BASE}/${created.id}`);
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 32);
      assert.deepEqual(
        { ...created, secret: undefined },
        {
          id: created.id,
          name: 'CRM sync',
          url: 'https://example.com/hooks/custops',
          event_types: ['deal.won', 'deal.lost'],
          enabled: true,
          disabled_reason: null,
          created_at: '2026-11-20T10:00:00.000Z',
          updated_at: '2026-11-20T10:00:00.000Z',
          secret: undefined,
        },
      );
      const row = await h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_encrypted.includes(created.secret.slice(6, 20)));
      assert.equal(decryptSecret(h.config.secretKey!, row.secret_encrypted), created.secret);
      const disabled = await create(h, a, { enabled: false, event_types: ['deal.won', 'deal.won'] });
      assert.equal(disabled.enabled, false);
      assert.equal(disabled.disabled_reason, 'manual');
      assert.deepEqual(disabled.event_types, ['deal.won'], 'duplicates fold');
      assert.deepEqual(await outboxOf(h.db, a.accountId), [], 'endpoint management emits no events');
    });

    test('GET list and one never show a secret; newest first; pagination; other accounts see nothing', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await create(h, a, { name: `E${i}` })).id);
        clock.advance(1000);
      }
      const list = await call(h, 'GET', BASE, { key: a.key, query: { per_page: 2 } });
      assert.equal(list.statusCode, 200);
      assert.doesNotMatch(list.body, /secret|whsec_/);
      assert.deepEqual(
        list.json().data.map((e: any) => e.id),
        [ids[2], ids[1]],
      );
      assert.deepEqual(list.json().pagination, { page: 1, per_page: 2, total: 3, pages: 2, has_next: true, has_prev: false });
      const p2 = (await call(h, 'GET', BASE, { key: a.key, query: { per_page: 2, page: 2 } })).json();
      assert.deepEqual(
        p2.data.map((e: any) => e.id),
        [ids[0]],
      );
      const one = await call(h, 'GET', `${BASE}/${ids[0]}`, { key: a.key });
      assert.equal(one.statusCode, 200);
      assert.doesNotMatch(one.body, /secret|whsec_/);
      assert.deepEqual(Object.keys(one.json()).sort(), ['created_at', 'disabled_reason', 'enabled', 'event_types', 'id', 'name', 'updated_at', 'url']);
      assert.equal((await call(h, 'GET', BASE, { key: b.key })).json().pagination.total, 0);
      for (const [method, url, payload] of [
        ['GET', `${BASE}/${ids[0]}`],
        ['PATCH', `${BASE}/${ids[0]}`, { name: 'x' }],
        ['DELETE', `${BASE}/${ids[0]}`],
        ['POST', `${BASE}/${ids[0]}/rotate-secret`, {}],
        ['POST', `${BASE}/${ids[0]}/recover`, { since: '2026-01-01' }],
        ['GET', `${BASE}/999999`],
        ['PATCH', `${BASE}/999999`, { name: 'x' }],
        ['DELETE', `${BASE}/999999`],
      ] as const) {
        assertError(await call(h, method, url, { key: b.key, body: payload }), 404, 'webhook_endpoint_not_found');
      }
      assert.equal((await call(h, 'GET', `${BASE}/${ids[0]}`, { key: a.key })).statusCode, 200, 'untouched by the other account');
    });

    test('PATCH changes fields, re-enabling clears disabled_reason; DELETE removes', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      clock.advance(5000);
      const res = await call(h, 'PATCH', `${BASE}/${e.id}`, {
        key: a.key,
        body: { name: 'Renamed', url: 'https://hooks.example.org/v2', event_types: ['support.log.created'], enabled: false },
      });
      assert.equal(res.statusCode, 200, res.body);
      const { secret: _s, ...view } = e;
      assert.deepEqual(res.json(), {
        ...view,
        name: 'Renamed',
        url: 'https://hooks.example.org/v2',
        event_types: ['support.log.created'],
        enabled: false,
        disabled_reason: 'manual',
        updated_at: '2026-11-20T10:00:08.000Z',
      });
      await h.db.updateTable('webhook_endpoints').set({ disabled_reason: 'gone' }).where('id', '=', e.id).execute();
      const again = (await call(h, 'PATCH', `${BASE}/${e.id}`, { key: a.key, body: { enabled: true } })).json();
      assert.equal(again.enabled, true);
      assert.equal(again.disabled_reason, null);
      const del = await call(h, 'DELETE', `${BASE}/${e.id}`, { key: a.key });
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assertError(await call(h, 'GET', `${BASE}/${e.id}`, { key: a.key }), 404, 'webhook_endpoint_not_found');
    });

    test('an action route without a body takes it as {}; a body that is not an object is 422 naming body, nothing changes', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      const before = await h.db.selectFrom('webhook_endpoints').select('secret_encrypted').where('id', '=', e.id).executeTakeFirstOrThrow();
      for (const raw of ['null', '[]', '"x"', '{"idempotency_key": ']) {
        const err = assertError(await call(h, 'POST', `${BASE}/${e.id}/rotate-secret`, { key: a.key, body: raw }), 422, 'validation_error');
        assert.ok(err.fields.body, `${raw}: ${JSON.stringify(err.fields)}`);
      }
      const after = await h.db.selectFrom('webhook_endpoints').select('secret_encrypted').where('id', '=', e.id).executeTakeFirstOrThrow();
      assert.equal(after.secret_encrypted, before.secret_encrypted);
      assert.equal((await call(h, 'POST', `${BASE}/${e.id}/rotate-secret`, { key: a.key })).statusCode, 200);
    });

    test('rotate-secret shows a new secret once and keeps the old one for 24 hours', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      const res = await call(h, 'POST', `${BASE}/${e.id}/rotate-secret`, { key: a.key });
      assert.equal(res.statusCode, 200);
      const r = res.json();
      assert.match(r.secret, /^whsec_/);
      assert.notEqual(r.secret, e.secret);
      assert.equal(r.previous_secret_expires_at, new Date(clock.now() + 86_400_000).toISOString());
      const row = await h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', e.id).executeTakeFirstOrThrow();
      assert.equal(decryptSecret(h.config.secretKey!, row.secret_encrypted), r.secret);
      assert.equal(decryptSecret(h.config.secretKey!, row.previous_secret_encrypted!), e.secret);
      assert.doesNotMatch((await call(h, 'GET', `${BASE}/${e.id}`, { key: a.key })).body, /whsec_/);
    });

    test('recover re-queues failed deliveries in the window only', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      const ev = async (created: number) =>
        (
          await h.db
            .insertInto('events')
            .values({
              account_id: a.accountId,
              public_id: `evt_r${created}${Math.random()}`,
              event_type: 'deal.won',
              org_id: 1,
              payload: '{}',
              created_at: created,
              dispatched_at: created,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const mk = async (created: number, status: 'failed' | 'sent') =>
        h.db
          .insertInto('webhook_deliveries')
          .values({
            account_id: a.accountId,
            endpoint_id: e.id,
            event_id: await ev(created),
            event_type: 'deal.won',
            status,
            attempts: 10,
            next_attempt_at: null,
            response_status: 500,
            error: 'http_status',
            duration_ms: 3,
            locked_until: null,
            created_at: created,
            last_attempt_at: created,
            next_trigger: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const inWindow = await mk(Date.UTC(2026, 10, 10, 12), 'failed');
      const before = await mk(Date.UTC(2026, 10, 9, 12), 'failed');
      await mk(Date.UTC(2026, 10, 10, 13), 'sent');
      const res = await call(h, 'POST', `${BASE}/${e.id}/recover`, { key: a.key, body: { since: '2026-11-10', until: '2026-11-10' } });
      assert.equal(res.statusCode, 202);
      assert.deepEqual(res.json(), { requeued: 1 });
      const rows = await h.db.selectFrom('webhook_deliveries').select(['id', 'next_attempt_at', 'next_trigger']).where('endpoint_id', '=', e.id).execute();
      assert.deepEqual({ ...rows.find((r) => r.id === inWindow.id) }, { id: inWindow.id, next_attempt_at: clock.now(), next_trigger: 'manual' });
      assert.equal(rows.find((r) => r.id === before.id)!.next_attempt_at, null);
      for (const [b, field] of [
        [{}, 'since'],
        [{ since: '2026-02-30' }, 'since'],
        [{ since: 'yesterday' }, 'since'],
        [{ since: '2026-11-10', until: '2026-13-01' }, 'until'],
        [{ since: 5 }, 'since'],
        [{ since: '2026-11-10', extra: 1 }, 'extra'],
      ] as const) {
        const err = assertError(await call(h, 'POST', `${BASE}/${e.id}/recover`, { key: a.key, body: b }), 422, 'validation_error');
        assert.ok(err.fields[field], JSON.stringify(err.fields));
      }
    });

    test('URL rules: HTTPS only, and every blocked address class is refused at registration', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      for (const [url, reason] of [
        ['http://example.com/h', 'not_allowed'],
        ['ftp://example.com/h', 'not_allowed'],
        ['not a url', 'invalid_format'],
        ['https://user:pw@example.com/h', 'not_allowed'],
        ['//example.com', 'invalid_format'],
      ] as const) {
        const err = assertError(await call(h, 'POST', BASE, { key: a.key, body: body({ url }) }), 422, 'validation_error');
        assert.equal(err.fields.url, reason, url);
      }
      for (const url of BLOCKED) {
        const err = assertError(await call(h, 'POST', BASE, { key: a.key, body: body({ url }) }), 422, 'validation_error');
        assert.equal(err.fields.url, 'not_allowed', url);
      }
      assert.deepEqual(await tableCounts(h.db), before);
      const e = await create(h, a);
      const patched = assertError(
        await call(h, 'PATCH', `${BASE}/${e.id}`, { key: a.key, body: { url: 'https://[::ffff:192.168.0.1]/x' } }),
        422,
        'validation_error',
      );
      assert.equal(patched.fields.url, 'not_allowed');
      for (const url of ALLOWED) assert.equal((await create(h, a, { url })).url, url);
    });

    test('event_types: a non-empty subset of exactly the seven catalog types', async () => {
      const a = await createTestAccount(h);
      assert.deepEqual((await create(h, a, { event_types: [...EVENT_TYPES] })).event_types, [...EVENT_TYPES]);
      for (const [types, reason] of [
        [[], 'too_short'],
        [['customer.created'], 'invalid_enum'],
        [['task.completed'], 'invalid_enum'],
        [['deal.*'], 'invalid_enum'],
        [['deal.won', 'DEAL.LOST'], 'invalid_enum'],
        ['deal.won', 'invalid_type'],
        [[1], 'invalid_type'],
      ] as const) {
        const err = assertError(await call(h, 'POST', BASE, { key: a.key, body: body({ event_types: types }) }), 422, 'validation_error');
        assert.ok(
          Object.keys(err.fields).some((f) => f.startsWith('event_types')),
          JSON.stringify(err.fields),
        );
        if (Array.isArray(types) && types.every((t) => typeof t === 'string')) assert.equal(err.fields.event_types, reason);
      }
    });

    test('bad bodies are 422 naming the field and change nothing (property-based)', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      const bad = fc.oneof(
        fc.record({ name: fc.oneof(fc.integer(), fc.constant(null), fc.constant(''), fc.constant('x'.repeat(100_000)), fc.boolean()) }),
        fc.record({
          url: fc.oneof(
            fc.integer(),
            fc.constant(null),
            fc.constant(''),
            fc.constant('https://' + 'a'.repeat(100_000)),
            fc.webUrl().map((u) => u.replace(/^https?/, 'http')),
          ),
        }),
        fc.record({
          event_types: fc.oneof(
            fc.constant(null),
            fc.constant([]),
            fc.array(fc.string(), { minLength: 1 }).filter((l) => l.some((t) => !(EVENT_TYPES as readonly string[]).includes(t))),
            fc.constant({ a: { b: { c: {} } } }),
          ),
        }),
        fc.record({ enabled: fc.oneof(fc.constant('true'), fc.constant(1), fc.constant(null)) }),
        fc.record({ x_unknown: fc.anything().filter((v) => v !== undefined) }),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(bad, fc.boolean(), async (patch, asCreate) => {
          const field = Object.keys(patch)[0];
          const res = asCreate
            ? await call(h, 'POST', BASE, { key: a.key, body: { ...body(), ...patch } })
            : await call(h, 'PATCH', `${BASE}/${e.id}`, { key: a.key, body: patch });
          const err = assertError(res, 422, 'validation_error');
          assert.ok(
            Object.keys(err.fields).some((f) => f === field || f.startsWith(field + '.')),
            `${JSON.stringify(patch).slice(0, 200)} → ${JSON.stringify(err.fields)}`,
          );
        }),
        { numRuns: 40 },
      );
      for (const missing of ['name', 'url', 'event_types']) {
        const b: Record<string, unknown> = body();
        delete b[missing];
        assert.equal(assertError(await call(h, 'POST', BASE, { key: a.key, body: b }), 422, 'validation_error').fields[missing], 'required');
      }
      assert.equal(assertError(await call(h, 'POST', BASE, { key: a.key, body: '{"name":' }), 422, 'validation_error').fields.body, 'invalid_json');
      assert.equal(assertError(await call(h, 'GET', `${BASE}/abc`, { key: a.key }), 422, 'validation_error').fields.id, 'invalid_type');
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('idempotent create replays the first answer and makes one endpoint', async () => {
      const a = await createTestAccount(h);
      const first = await call(h, 'POST', BASE, { key: a.key, body: body(), headers: { 'idempotency-key': 'k-1' } });
      const second = await call(h, 'POST', BASE, { key: a.key, body: body(), headers: { 'idempotency-key': 'k-1' } });
      assert.equal(second.statusCode, 201);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.equal(second.json().id, first.json().id);
      assert.equal((await call(h, 'GET', BASE, { key: a.key })).json().pagination.total, 1);
    });

    test('common authentication and scope checks on every route', async () => {
      const a = await createTestAccount(h);
      const e = await create(h, a);
      const routes = [
        { method: 'GET', url: BASE, scope: 'webhooks:read' },
        { method: 'POST', url: BASE, scope: 'webhooks:write', body: body() },
        { method: 'GET', url: `${BASE}/${e.id}`, scope: ['webhooks:read', 'webhooks:write'] },
        { method: 'PATCH', url: `${BASE}/${e.id}`, scope: 'webhooks:write', body: { name: 'n' } },
        { method: 'DELETE', url: `${BASE}/${e.id}`, scope: 'webhooks:write' },
        { method: 'POST', url: `${BASE}/${e.id}/rotate-secret`, scope: 'webhooks:write', body: {} },
        { method: 'POST', url: `${BASE}/${e.id}/recover`, scope: 'webhooks:write', body: { since: '2026-01-01' } },
        { method: 'GET', url: '/api/v1/webhooks/deliveries', scope: 'webhooks:read' },
        { method: 'GET', url: '/api/v1/webhooks/deliveries/1', scope: ['webhooks:read', 'webhooks:write'] },
        { method: 'POST', url: '/api/v1/webhooks/deliveries/1/retry', scope: 'webhooks:write', body: {} },
      ] as const;
      for (const route of routes) await assertCommonAuth(h, a, route);
      const reader = await a.keyWith(['read']);
      assert.equal((await call(h, 'GET', BASE, { key: reader })).statusCode, 200);
      assertError(await call(h, 'POST', BASE, { key: reader, body: body() }), 403, 'forbidden');
      const writer = await a.keyWith(['webhooks:write']);
      assert.equal((await call(h, 'POST', BASE, { key: writer, body: body() })).statusCode, 201);
      // Managing an endpoint includes reading it (docs/design.md#webhooks: the one-item GETs belong to webhook management); the lists stay reads.
      assert.equal((await call(h, 'GET', `${BASE}/${e.id}`, { key: writer })).statusCode, 200);
      assertError(await call(h, 'GET', BASE, { key: writer }), 403, 'forbidden');
    });
  });
}
