import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { ScopeRequirement } from '../../src/modules/api-keys/scopes.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';

// Driven by the OpenAPI document, so a route added later is checked without being listed here: every
// operation of /api/v1 either is public or has authentication (401s), the signature check and its
// scope (403 with required_scopes); and every operation addressing a record by path id answers
// another account's record exactly as a missing one (404 <thing>_not_found).

interface Operation {
  method: string;
  path: string;
  operationId: string;
  security: Record<string, unknown>[];
  scopes?: string[];
}

/** The record kind a path parameter names, from the path segment before it. */
const KIND_BEFORE: Record<string, string> = {
  orgs: 'org',
  users: 'user',
  contacts: 'contact',
  'marketing-audiences': 'audience',
  deals: 'deal',
  activities: 'activity',
  tickets: 'ticket',
  logs: 'log',
  endpoints: 'endpoint',
  deliveries: 'delivery',
};

/** A body that passes validation, for each operation that takes one, so the request reaches the existence check. */
const VALID_BODY: Record<string, unknown> = {
  createOrg: { name: 'Checked' },
  resolveOrg: { source_app: 'app', external_org_id: 'x', org_name: 'Nobody' },
  linkOrgExternalId: { source_app: 'app', external_org_id: 'linked' },
  createUser: { email: 'checked@example.com', display_name: 'Checked' },
  createContact: { org_id: 1, name: 'Checked' },
  replaceContactMarketingAudiences: { audience_ids: [] },
  removeContactMarketingAudiences: undefined,
  createMarketingAudience: { name: 'Checked' },
  createDeal: { org_id: 1, title: 'Checked' },
  updateDeal: { title: 'Checked' },
  createDealActivity: { source_app: 'app', message: 'Checked' },
  createTicket: { org_id: 1, title: 'T', details: 'D', contact_email: 'c@example.com', source_app: 'app' },
  updateTicket: { title: 'Checked' },
  createTicketLog: { note: 'Checked' },
  createWebhookEndpoint: { name: 'c', url: 'https://127.0.0.1:9/hook', event_types: ['deal.won'] },
  updateWebhookEndpoint: { name: 'Checked' },
  deleteWebhookEndpoint: undefined,
  rotateWebhookSecret: undefined,
  recoverWebhookEndpoint: { since: '2026-01-01' },
  retryWebhookDelivery: undefined,
  sendWebhookTest: { event_type: 'deal.won' },
};

for (const engine of engines()) {
  describe(`every route of the OpenAPI document: authentication, scope, tenancy [${engine}]`, () => {
    let h: Harness;
    let a: TestAccount;
    let operations: Operation[];
    /** Ids of account B's records, by kind. */
    const theirs: Record<string, number> = {};

    before(async () => {
      h = await createHarness(engine, { env: { CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1' } });
      a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const post = async (url: string, body: unknown) => {
        const res = await call(h, 'POST', url, { key: b.key, body });
        assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
        return res.json().id as number;
      };
      theirs.org = await post('/api/v1/orgs', { name: 'Theirs' });
      theirs.user = await post('/api/v1/users', { email: 'theirs@example.com', display_name: 'Theirs' });
      theirs.contact = await post('/api/v1/contacts', { org_id: theirs.org, name: 'Theirs' });
      theirs.audience = await post('/api/v1/marketing-audiences', { name: 'Theirs' });
      theirs.deal = await post('/api/v1/deals', { org_id: theirs.org, title: 'Theirs', status: 'won' });
      theirs.activity = await post(`/api/v1/deals/${theirs.deal}/activities`, { source_app: 'app', message: 'Theirs' });
      theirs.ticket = await post('/api/v1/support/tickets', { org_id: theirs.org, title: 'T', details: 'D', contact_id: theirs.contact, source_app: 'app' });
      theirs.log = await post(`/api/v1/support/tickets/${theirs.ticket}/logs`, { note: 'Theirs' });
      theirs.endpoint = await post('/api/v1/webhooks/endpoints', { name: 'theirs', url: 'https://127.0.0.1:9/hook', event_types: ['deal.won'] });
      const event = await h.db.selectFrom('events').select('id').where('account_id', '=', b.accountId).limit(1).executeTakeFirstOrThrow();
      const delivery = await h.db
        .insertInto('webhook_deliveries')
        .values({
          account_id: b.accountId,
          endpoint_id: theirs.endpoint,
          event_id: event.id,
          event_type: 'deal.won',
          status: 'failed',
          attempts: 1,
          next_attempt_at: null,
          response_status: 500,
          error: null,
          duration_ms: 5,
          locked_until: null,
          next_trigger: null,
          created_at: Date.now(),
          last_attempt_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      theirs.delivery = delivery.id;

      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
        paths: Record<string, Record<string, { operationId: string; security: Record<string, unknown>[]; 'x-required-scopes'?: string[] }>>;
      };
      operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          operationId: op.operationId,
          security: op.security,
          scopes: op['x-required-scopes'],
        })),
      );
      assert.ok(operations.length > 40, 'the document lists the API');
    });
    after(() => h.close());

    /** The path with each parameter replaced by account B's record of that kind. */
    const theirPath = (path: string): string =>
      path.replace(/\/([^/{}]+)\/\{[^}]+\}/g, (_m, segment: string) => {
        const kind = KIND_BEFORE[segment];
        assert.ok(kind && theirs[kind] !== undefined, `${path}: no fixture for records under /${segment}/ (add one to this test)`);
        return `/${segment}/${theirs[kind]}`;
      });

    test('each operation is public or checks authentication, the signature and its scope', async () => {
      for (const op of operations) {
        // Console-session routes and /metrics (its own token) have their own suites; API-key routes are checked here.
        if (op.security.length > 0 && !op.security.some((s) => 'bearerAuth' in s)) continue;
        if (op.security.length === 0) {
          assert.equal(op.scopes, undefined, `${op.operationId} is public and names no scope`);
          continue;
        }
        assert.ok(op.scopes?.length, `${op.operationId} names its scope`);
        assert.ok(op.operationId in VALID_BODY || op.method === 'GET', `${op.operationId}: add a valid body to this test`);
        await assertCommonAuth(h, a, {
          method: op.method as InjectOptions['method'],
          url: theirPath(op.path),
          scope: op.scopes as ScopeRequirement,
          body: VALID_BODY[op.operationId],
        });
      }
    });

    test("each operation that addresses a record by id answers another account's record as not found", async () => {
      let checked = 0;
      for (const op of operations.filter((o) => o.path.includes('{') && o.security.some((s) => 'bearerAuth' in s))) {
        const res = await call(h, op.method as InjectOptions['method'], theirPath(op.path), { key: a.key, body: VALID_BODY[op.operationId] });
        const body = assertError(res, 404, res.json().error);
        assert.match(body.error, /_not_found$/, `${op.method} ${op.path}`);
        checked++;
      }
      assert.ok(checked >= 20, `${checked} operations address records by id`);
      // Nothing of account B changed through those calls.
      const deal = await h.db.selectFrom('deals').select(['title', 'status']).where('id', '=', theirs.deal).executeTakeFirstOrThrow();
      assert.deepEqual({ ...deal }, { title: 'Theirs', status: 'won' });
      assert.ok(await h.db.selectFrom('webhook_endpoints').select('id').where('id', '=', theirs.endpoint).executeTakeFirst());
    });
  });
}
