import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../src/webhooks.ts';
import { createTestDatabase, onEachEngineAtOnce, type TestDatabase } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { custops, freePort, waitForHttp, waitUntil } from './helpers/processes.ts';
import { plainReceiver } from './helpers/receiver.ts';

/** Opens the stream over real HTTP and collects messages until `count` arrived (or `ms` passed). */
async function collect(url: string, headers: Record<string, string>, count: number, act: () => Promise<void>, ms = 10_000) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const messages: EventSourceMessage[] = [];
  if (res.status !== 200) return { res, messages, body: await res.text() };
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted
    }
  })();
  await act();
  const end = Date.now() + ms;
  while (messages.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  // A little longer: anything beyond `count` would be a wrong extra message.
  await new Promise((r) => setTimeout(r, 600));
  controller.abort();
  await reading;
  return { res, messages, body: '' };
}

/** The forwarding target: the second delivery is answered 500. */
async function forwardTarget() {
  const receiver = await plainReceiver((n) => (n === 2 ? 500 : 200));
  return { ...receiver, url: `http://localhost:${receiver.port}/hooks` };
}

onEachEngineAtOnce('the event stream and custops listen, each engine at once', (engine) => {
  describe(`GET /api/v1/events/stream [${engine}]`, () => {
    let h: Harness;
    let base: string;
    before(async () => {
      h = await createHarness(engine);
      base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => h.close());

    test('streams the account’s new events with the exact payload bytes, filtered by type; Last-Event-ID resumes after a message', async () => {
      const a = await createTestAccount(h);
      const other = await createTestAccount(h);
      const org = (await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'Streamed' } })).json();
      const early = (await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org.id, title: 'Before the stream' } })).json();
      const url = `${base}/api/v1/events/stream?types=deal.created,deal.won`;
      const { res, messages } = await collect(url, { authorization: `Bearer ${a.key}` }, 2, async () => {
        const otherOrg = (await call(h, 'POST', '/api/v1/orgs', { key: other.key, body: { name: 'Elsewhere' } })).json();
        await call(h, 'POST', '/api/v1/deals', { key: other.key, body: { org_id: otherOrg.id, title: 'Another account' } });
        const deal = (await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org.id, title: 'During' } })).json();
        await call(h, 'POST', `/api/v1/deals/${deal.id}/activities`, {
          key: a.key,
          body: { source_app: 'crm', message: 'filtered out', activity_kind: 'note' },
        });
        await call(h, 'PATCH', `/api/v1/deals/${deal.id}`, { key: a.key, body: { status: 'won' } });
      });
      assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
      assert.deepEqual(
        messages.map((m) => m.event),
        ['deal.created', 'deal.won'],
        'only new events of this account and of the asked types',
      );
      const stored = await h.db.selectFrom('events').select(['id', 'payload']).where('account_id', '=', a.accountId).orderBy('id').execute();
      for (const m of messages) {
        const row = stored.find((r) => String(r.id) === m.id)!;
        assert.equal(m.data, row.payload, 'the payload bytes as stored and delivered');
      }
      assert.notEqual(JSON.parse(messages[0].data).deal_id, early.id);

      const resumed = await collect(url, { authorization: `Bearer ${a.key}`, 'last-event-id': messages[0].id! }, 1, async () => {});
      assert.deepEqual(
        resumed.messages.map((m) => m.id),
        [messages[1].id],
        'resumes after the given message',
      );
      // Waits for as many messages as the account has events (then a little longer: one more would be wrong).
      const fromStart = await collect(
        `${base}/api/v1/events/stream`,
        { authorization: `Bearer ${a.key}`, 'last-event-id': '0' },
        stored.length,
        async () => {},
      );
      assert.equal(fromStart.messages.length, stored.length, 'Last-Event-ID 0 replays every event the account has');
    });

    test('authentication, scope and bad input', async () => {
      const a = await createTestAccount(h);
      const stream = `${base}/api/v1/events/stream`;
      assert.equal((await fetch(stream)).status, 401);
      const dealsOnly = await a.keyWith(['deals:read']);
      const forbidden = await fetch(stream, { headers: { authorization: `Bearer ${dealsOnly}` } });
      assert.equal(forbidden.status, 403);
      assert.deepEqual(((await forbidden.json()) as any).required_scopes.includes('webhooks:read'), true);
      const reader = await a.keyWith(['webhooks:read']);
      const badType = await fetch(`${stream}?types=deal.created,deal.updated`, { headers: { authorization: `Bearer ${reader}` } });
      assert.equal(badType.status, 422);
      assert.deepEqual(((await badType.json()) as any).fields, { types: 'invalid' });
      const badId = await fetch(stream, { headers: { authorization: `Bearer ${reader}`, 'last-event-id': 'abc' } });
      assert.equal(badId.status, 422);
      assert.deepEqual(((await badId.json()) as any).fields, { 'last-event-id': 'invalid' });
    });
  });

  describe(`custops listen forwards a running serve's events to a plain-HTTP receiver [${engine}]`, () => {
    let t: TestDatabase;
    let receiver: Awaited<ReturnType<typeof forwardTarget>>;
    let serve: ReturnType<typeof custops>;
    let api: string;
    let key: string;
    let accountId: number;
    before(async () => {
      t = await createTestDatabase(engine, { sqlitePath: join(mkdtempSync(join(tmpdir(), 'custops-listen-')), 'listen.db') });
      receiver = await forwardTarget();
      const { account } = await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Listen' });
      accountId = account.id;
      key = (await createApiKey({ db: t.handle.db, clock: systemClock }, { accountId, name: 'cli', scopes: ['*'], rateLimitPerMinute: null })).secret;
      const port = await freePort();
      api = `http://127.0.0.1:${port}`;
      serve = custops(['serve', '--port', String(port)], { DATABASE_URL: t.url, CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' });
      // As the other suites that start servers: a loaded machine (several suites starting servers at once) can take a while.
      await waitForHttp(`${api}/healthz`, serve, 60_000);
    });
    after(async () => {
      if (serve.proc.exitCode === null) serve.proc.kill('SIGTERM');
      await serve.exited;
      receiver.server.close();
      await t.drop();
    });

    test('each event arrives signed with the printed secret, and each answer is printed', async () => {
      const listen = custops(['listen', '--forward-to', receiver.url, '--events', 'deal.created,deal.won', '--api', api], { CUSTOPS_API_KEY: key });
      try {
        await waitUntil(
          () => `listen ready (${listen.output()})`,
          () => /Signing secret for this session: whsec_\S+/.test(listen.output()),
          30_000,
        );
        const secret = /Signing secret for this session: (whsec_\S+)/.exec(listen.output())![1];
        const post = async (method: string, path: string, body: object) => {
          const res = await fetch(`${api}/api/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          assert.ok(res.ok, `${method} ${path}: ${res.status}`);
          return (await res.json()) as any;
        };
        const org = await post('POST', '/orgs', { name: 'Local dev' });
        const deal = await post('POST', '/deals', { org_id: org.id, title: 'Forwarded' });
        await post('POST', `/deals/${deal.id}/activities`, { source_app: 'crm', message: 'not forwarded', activity_kind: 'call' });
        await post('PATCH', `/deals/${deal.id}`, { status: 'won' });
        await waitUntil('two deliveries', () => receiver.got.length >= 2, 20_000);
        await waitUntil('both answers printed', () => (listen.output().match(/<- \d{3}/g) ?? []).length >= 2, 10_000);
        assert.deepEqual(
          receiver.got.map((g) => g.headers['x-service-event']),
          ['deal.created', 'deal.won'],
        );
        const stored = await t.handle.db.selectFrom('events').select(['public_id', 'payload']).where('account_id', '=', accountId).orderBy('id').execute();
        for (const g of receiver.got) {
          const headers = g.headers as Record<string, string>;
          assert.ok(verifyWebhookSignature(g.raw, headers, secret), 'X-Service-Signature with the printed secret');
          assert.ok(verifyStandardWebhook(g.raw, headers, secret), 'webhook-signature with the printed secret');
          assert.equal(headers['webhook-id'], JSON.parse(g.raw.toString()).id);
          assert.ok(
            stored.some((s) => s.payload === g.raw.toString('utf8')),
            'the exact payload bytes',
          );
        }
        assert.match(listen.output(), /deal\.created evt_\S+ {2}-> POST http:\/\/localhost:\d+\/hooks {2}<- 200 OK/);
        assert.match(listen.output(), /deal\.won evt_\S+ {2}-> POST http:\/\/localhost:\d+\/hooks {2}<- 500 Internal Server Error/);
        listen.proc.kill('SIGTERM');
        assert.equal((await listen.exited).code, 0, listen.output());
      } finally {
        if (listen.proc.exitCode === null) listen.proc.kill('SIGKILL');
      }
    });

    test('a wrong key stops listen with one line and exit 1; bad flags are usage errors', async () => {
      // Both at once: neither depends on the other.
      const wrong = custops(['listen', '--forward-to', receiver.url, '--api', api, '--key', 'cok_not_a_key'], {});
      const bad = custops(['listen', '--forward-to', receiver.url, '--api', api, '--key', key, '--events', 'deal.updated'], {});
      const [wrongExit, badExit] = await Promise.all([wrong.exited, bad.exited]);
      assert.equal(wrongExit.code, 1);
      assert.match(wrong.output().trim(), /^custops: the event stream answered 401: [^\n]+$/);
      assert.equal(badExit.code, 2);
      assert.match(bad.output(), /--events must list event types/);
    });
  });
});
