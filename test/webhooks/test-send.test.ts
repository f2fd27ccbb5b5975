import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createTestAccount, type TestAccount } from '../helpers/harness.ts';
import { addUser, asUser, signIn } from '../helpers/sessions.ts';
import { createEndpoint, webhookEnv, type WebhookEnv } from './helpers/setup.ts';

for (const engine of engines()) {
  describe(`webhook test send [${engine}]`, () => {
    let env: WebhookEnv;
    let acct: TestAccount;
    before(async () => {
      env = await webhookEnv(engine);
      acct = await createTestAccount(env.h);
    });
    after(() => env.close());

    const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, key = acct.key) => call(env.h, method, url, { key, body });

    test('no fitting record: 422 no_example_available, nothing written', async () => {
      const ep = await createEndpoint(env.h, acct, env.receiver.url('/empty'), ['deal.won']);
      const counts = await tableCounts(env.h.db);
      const res = await api('POST', `/api/v1/webhooks/endpoints/${ep.id}/test`, { event_type: 'deal.won' });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().error, 'no_example_available');
      assert.deepEqual(await tableCounts(env.h.db), counts);
    });

    test('sends the newest fitting record to that endpoint only, marked test, and shows trigger test', async () => {
      const org = (await api('POST', '/api/v1/orgs', { name: 'Test Send Org' })).json();
      await api('POST', '/api/v1/deals', { org_id: org.id, title: 'Older win', status: 'won' });
      const newest = (await api('POST', '/api/v1/deals', { org_id: org.id, title: 'Newest <b>win</b>', status: 'won' })).json();
      await api('POST', '/api/v1/deals', { org_id: org.id, title: 'Still open' });
      const target = await createEndpoint(env.h, acct, env.receiver.url('/target'), ['deal.won']);
      const bystander = await createEndpoint(env.h, acct, env.receiver.url('/bystander'), ['deal.won']);
      await env.dispatcher().drain(); // the real deal.won events reach both endpoints first
      const before = env.receiver.received.length;
      const realEvents = (await env.h.db.selectFrom('events').select('public_id').execute()).map((e) => e.public_id);

      const res = await api('POST', `/api/v1/webhooks/endpoints/${target.id}/test`, { event_type: 'deal.won' });
      assert.equal(res.statusCode, 202);
      const delivery = res.json();
      assert.equal(delivery.test, true);
      assert.equal(delivery.endpoint_id, target.id);
      assert.equal(delivery.status, 'pending');
      assert.ok(!realEvents.includes(delivery.event_id), 'a new event id');

      await env.dispatcher().drain();
      const got = env.receiver.received.slice(before);
      assert.deepEqual(
        got.map((r) => r.path),
        ['/target'],
        'only that endpoint receives it',
      );
      const body = JSON.parse(got[0].raw.toString());
      assert.equal(body.test, true);
      assert.equal(body.id, delivery.event_id);
      assert.equal(body.event_type, 'deal.won');
      assert.equal(body.deal_id, newest.id);
      assert.equal(body.deal.title, 'Newest <b>win</b>');
      assert.equal(body.org_id, org.id);
      assert.equal(got[0].headers['x-service-test'], '1');
      assert.equal(got[0].headers['x-service-event-id'], delivery.event_id);

      const detail = (await api('GET', `/api/v1/webhooks/deliveries/${delivery.id}`)).json();
      assert.equal(detail.status, 'sent');
      assert.deepEqual(
        detail.attempts_log.map((a: any) => a.trigger),
        ['test'],
      );
      assert.deepEqual(detail.payload, body);
      assert.equal(detail.request_headers['x-service-test'], '1');
      assert.equal(detail.request_headers['x-service-signature'], '••••••••');
      assert.equal(detail.request_headers['webhook-signature'], 'v1,••••••••');
      assert.equal(detail.request_headers['x-service-event-id'], delivery.event_id);
      assert.ok(!JSON.stringify(detail).includes(got[0].headers['x-service-signature'] as string), 'no real signature shown');
      const list = (await api('GET', '/api/v1/webhooks/deliveries', undefined)).json();
      assert.equal(list.data.filter((d: any) => d.endpoint_id === bystander.id && d.test).length, 0);
    });

    test('every catalog type has an example once records exist; each fits its type', async () => {
      const a = await createTestAccount(env.h);
      const key = a.key;
      const org = (await api('POST', '/api/v1/orgs', { name: 'Every Type' }, key)).json();
      const lost = (
        await api('POST', '/api/v1/deals', { org_id: org.id, title: 'Lost one', status: 'lost', lost_reason: { code: 'price', label: 'Too expensive' } }, key)
      ).json();
      const act = await api('POST', `/api/v1/deals/${lost.id}/activities`, { source_app: 'test', activity_kind: 'call', message: 'Called' }, key);
      assert.equal(act.statusCode, 201, act.body);
      const ticket = await call(env.h, 'POST', '/api/v1/support/tickets', {
        key,
        body: { source_app: 'test', org_id: org.id, title: 'Broken', details: 'It broke', contact_email: 'who@example.com' },
      });
      assert.equal(ticket.statusCode, 201, ticket.body);
      const ep = await createEndpoint(env.h, a, env.receiver.url('/every'), ['deal.created']);
      const expect: Record<string, (b: any) => void> = {
        'deal.created': (b) => assert.equal(b.deal.id, lost.id),
        'deal.lost': (b) => assert.deepEqual([b.deal.status, b.lost_reason?.code], ['lost', 'price']),
        'deal.activity.created': (b) => assert.deepEqual([b.deal_id, b.activity.message], [lost.id, 'Called']),
        'support.ticket.opened': (b) => assert.equal(b.slog.title, 'Broken'),
        'support.log.created': (b) => assert.equal(b.support_log.note, 'It broke'),
      };
      for (const [type, check] of Object.entries(expect)) {
        const r = await api('POST', `/api/v1/webhooks/endpoints/${ep.id}/test`, { event_type: type }, key);
        assert.equal(r.statusCode, 202, `${type}: ${r.body}`);
        const detail = (await api('GET', `/api/v1/webhooks/deliveries/${r.json().id}`, undefined, key)).json();
        assert.equal(detail.payload.event_type, type);
        assert.equal(detail.payload.test, true);
        check(detail.payload);
      }
      for (const type of ['deal.won', 'support.ticket.closed']) {
        const r = await api('POST', `/api/v1/webhooks/endpoints/${ep.id}/test`, { event_type: type }, key);
        assert.equal(r.statusCode, 422, type);
      }
    });

    test('a failing receiver: the test delivery fails with its response body and no scheduled retry; Retry sends it again', async () => {
      const org = (await api('POST', '/api/v1/orgs', { name: 'Fail Org' })).json();
      await api('POST', '/api/v1/deals', { org_id: org.id, title: 'Fresh deal' });
      // Subscribed to another type, so only the test send reaches it.
      const ep = await createEndpoint(env.h, acct, env.receiver.url('/failing'), ['support.log.created']);
      let fail = true;
      env.receiver.on('/failing', () => (fail ? { status: 500, body: 'receiver exploded <script>x</script>' } : { status: 200 }));
      const res = await api('POST', `/api/v1/webhooks/endpoints/${ep.id}/test`, { event_type: 'deal.created' });
      await env.dispatcher().drain();
      const failed = (await api('GET', `/api/v1/webhooks/deliveries/${res.json().id}`)).json();
      assert.equal(failed.status, 'failed');
      assert.equal(failed.next_attempt_at, null);
      assert.equal(failed.attempts_log[0].response_body, 'receiver exploded <script>x</script>');
      assert.equal(failed.attempts_log[0].status_code, 500);
      fail = false;
      assert.equal((await api('POST', `/api/v1/webhooks/deliveries/${failed.id}/retry`, {})).statusCode, 202);
      await env.dispatcher().drain();
      const sent = (await api('GET', `/api/v1/webhooks/deliveries/${failed.id}`)).json();
      assert.equal(sent.status, 'sent');
      assert.deepEqual(
        sent.attempts_log.map((a: any) => a.trigger),
        ['test', 'manual'],
      );
      const health = (await api('GET', '/api/v1/webhooks/endpoint-health')).json();
      const mine = health.data.find((x: any) => x.endpoint_id === ep.id);
      assert.deepEqual(
        [mine.attempts, mine.succeeded, mine.failed, mine.success_rate, mine.last_failure_error, mine.last_failure_status],
        [2, 1, 1, 50, 'http_status', 500],
      );
      assert.equal(health.window_hours, 24);
    });

    test('refusals: member session, read key, other account, bad type, disabled endpoint; nothing written', async () => {
      const ep = await createEndpoint(env.h, acct, env.receiver.url('/refused'), ['deal.created']);
      const other = await createTestAccount(env.h);
      const member = await signIn(env.h, (await addUser(env.h, acct.accountId, 'member')).email);
      const admin = await signIn(env.h, (await addUser(env.h, acct.accountId, 'admin')).email);
      const readKey = await acct.keyWith(['webhooks:read']);
      const url = `/api/v1/webhooks/endpoints/${ep.id}/test`;
      await api('PATCH', `/api/v1/webhooks/endpoints/${ep.id}`, { enabled: true });
      const counts = await tableCounts(env.h.db);
      const asMember = await asUser(env.h, member, 'POST', url, { body: { event_type: 'deal.created' } });
      assert.equal(asMember.statusCode, 403);
      assert.equal((await api('POST', url, { event_type: 'deal.created' }, readKey)).statusCode, 403);
      const foreign = await api('POST', url, { event_type: 'deal.created' }, other.key);
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().error, 'webhook_endpoint_not_found');
      const bad = await api('POST', url, { event_type: 'deal.exploded' });
      assert.equal(bad.statusCode, 422);
      assert.ok(bad.json().fields.event_type);
      assert.equal((await api('POST', url, {})).statusCode, 422);
      assert.equal((await asUser(env.h, admin, 'POST', url, { body: { event_type: 'deal.created' }, csrf: null })).statusCode, 403);
      assert.deepEqual(await tableCounts(env.h.db), counts);
      await api('PATCH', `/api/v1/webhooks/endpoints/${ep.id}`, { enabled: false });
      const disabled = await asUser(env.h, admin, 'POST', url, { body: { event_type: 'deal.created' } });
      assert.equal(disabled.statusCode, 409);
    });

    test('members are refused every webhook management route and audience memberships, but may read and do the rest', async () => {
      const ep = await createEndpoint(env.h, acct, env.receiver.url('/member'), ['deal.created']);
      const member = await signIn(env.h, (await addUser(env.h, acct.accountId, 'member')).email);
      const org = (await asUser(env.h, member, 'POST', '/api/v1/orgs', { body: { name: 'Member Org' } })).json();
      assert.ok(org.id, 'a member may create an org');
      const contact = await api('POST', '/api/v1/contacts', { org_id: org.id, name: 'C', email: 'c@example.com' });
      const audience = (await asUser(env.h, member, 'POST', '/api/v1/marketing-audiences', { body: { name: 'A' } })).json();
      const delivery = (await api('GET', '/api/v1/webhooks/deliveries')).json().data[0];
      const counts = await tableCounts(env.h.db);
      const refused: [string, string, unknown][] = [
        ['POST', '/api/v1/webhooks/endpoints', { name: 'x', url: env.receiver.url('/x'), event_types: ['deal.won'] }],
        ['PATCH', `/api/v1/webhooks/endpoints/${ep.id}`, { name: 'y' }],
        ['DELETE', `/api/v1/webhooks/endpoints/${ep.id}`, undefined],
        ['POST', `/api/v1/webhooks/endpoints/${ep.id}/rotate-secret`, {}],
        ['POST', `/api/v1/webhooks/endpoints/${ep.id}/recover`, { since: '2026-01-01' }],
        ['POST', `/api/v1/webhooks/deliveries/${delivery?.id ?? 1}/retry`, {}],
        ['PUT', `/api/v1/contacts/${contact.json().id}/marketing-audiences`, { audience_ids: [audience.id] }],
        ['DELETE', `/api/v1/contacts/${contact.json().id}/marketing-audiences`, undefined],
      ];
      for (const [method, url, body] of refused) {
        const r = await asUser(env.h, member, method as 'POST', url, { body });
        assert.equal(r.statusCode, 403, `${method} ${url}`);
        assert.equal(r.json().error, 'forbidden');
      }
      assert.deepEqual(await tableCounts(env.h.db), counts);
      assert.equal((await asUser(env.h, member, 'GET', '/api/v1/webhooks/endpoints')).statusCode, 200);
      assert.equal((await asUser(env.h, member, 'GET', `/api/v1/webhooks/endpoints/${ep.id}`)).statusCode, 200);
      assert.equal((await asUser(env.h, member, 'GET', '/api/v1/webhooks/endpoint-health')).statusCode, 200);
    });
  });
}
