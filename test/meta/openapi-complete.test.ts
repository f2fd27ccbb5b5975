import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { EVENT_TYPES } from '../../src/modules/events/catalog.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { engines } from '../helpers/engines.ts';
import { operations, servedDocument } from '../helpers/openapi-doc.ts';
import { outboxOf } from '../helpers/counts.ts';

/** A validator over the served document: `#/components/...` references resolve inside it. */
function validatorFor(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'https://custops.invalid/openapi.json', components: doc.components });
  return (schemaRef: string) => ajv.compile({ $ref: `https://custops.invalid/openapi.json${schemaRef}` });
}

describe('OpenAPI document: complete', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    ({ h, doc } = await servedDocument());
  });
  after(() => h.close());

  test('every operation has a success response with its own description and, unless 204, a schema', () => {
    for (const { id, op } of operations(doc)) {
      const successes = Object.entries<any>(op.responses).filter(([s]) => s.startsWith('2'));
      assert.ok(successes.length > 0, `${id} has a success response`);
      for (const [status, response] of successes) {
        assert.ok(response.description && response.description !== 'Default Response', `${id} ${status} is described (got "${response.description}")`);
        if (status !== '204') assert.ok(Object.values<any>(response.content ?? {})[0]?.schema, `${id} ${status} has a schema`);
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        assert.notEqual(response.description, 'Default Response', `${id} ${status}`);
      }
    }
  });

  test('each operation states its scope once', () => {
    for (const { id, op } of operations(doc)) {
      const mentions = (op.description ?? '').split('Required scope').length - 1;
      assert.equal(mentions, op['x-required-scopes'] ? 1 : 0, `${id}: "${op.description}"`);
    }
  });

  test('health, readiness and metrics are documented, outside API-key security', () => {
    for (const [path, id] of [
      ['/healthz', 'getHealth'],
      ['/readyz', 'getReadiness'],
      ['/metrics', 'getMetrics'],
    ]) {
      const op = doc.paths[path]?.get;
      assert.equal(op?.operationId, id, path);
      assert.deepEqual(op.security, path === '/metrics' ? [{ metricsToken: [] }] : [], `${path} needs no API key`);
    }
    assert.ok(doc.paths['/metrics'].get.responses['401'], 'metrics documents its token refusal');
    assert.ok(doc.paths['/readyz'].get.responses['503'], 'readiness documents its 503');
    assert.ok(doc.paths['/metrics'].get.responses['200'].content['text/plain'], 'metrics are text');
  });

  test('the webhooks section describes each of the seven events with its payload schema and the signature headers', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const op = doc.webhooks[type].post;
      const ref = op.requestBody.content['application/json'].schema.$ref as string;
      const schema = doc.components.schemas[ref.split('/').pop()!];
      assert.equal(schema.properties.event_type.const, type, `${type} payload names its type`);
      assert.equal(schema.additionalProperties, false, `${type}: the top level is exact`);
      const headers = op.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name.toLowerCase());
      for (const name of [
        'x-service-signature',
        'x-service-signature-previous',
        'x-service-event',
        'x-service-event-id',
        'x-service-delivery',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]) {
        assert.ok(headers.includes(name), `${type} documents ${name}`);
      }
    }
  });

  test('a payload of the wrong shape fails its schema (the check can fail)', () => {
    const validate = validatorFor(doc)('#/components/schemas/DealWonEvent');
    assert.equal(validate({ id: 'evt_x', event_type: 'deal.won', org_id: 1, timestamp: '2026-11-24T10:00:00.000Z', deal_id: 1 }), false, 'deal missing');
    assert.equal(validate({ id: 'evt_x', event_type: 'deal.lost', org_id: 1, timestamp: '2026-11-24T10:00:00.000Z', deal_id: 1, deal: {} }), false);
  });

  test('/docs is the custops reference and loads /api/v1/openapi.json', async () => {
    const page = await call(h, 'GET', '/docs/');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>custops API reference<\/title>/);
    assert.doesNotMatch(page.body, /favicon-32x32\.png/, 'no Swagger favicon');
    const init = await call(h, 'GET', '/docs/static/swagger-initializer.js');
    assert.match(init.body, /"urls":\[\{"url":"\/api\/v1\/openapi\.json"/);
    assert.match(init.body, /img\.src = 'data:image\/svg\+xml;base64,/, 'the custops logo replaces the Swagger one');
    assert.equal(doc.info.title, 'custops API');
  });
});

for (const engine of engines()) {
  describe(`emitted payloads validate against the webhooks schemas (${engine})`, () => {
    let h: Harness;
    let schemaOf: (type: string) => ReturnType<ReturnType<typeof validatorFor>>;
    before(async () => {
      h = await createHarness(engine);
      const doc = (await call(h, 'GET', '/api/v1/openapi.json')).json();
      const compile = validatorFor(doc);
      schemaOf = (type) => compile(doc.webhooks[type].post.requestBody.content['application/json'].schema.$ref);
    });
    after(() => h.close());

    test('every event the API emits, through the routes that emit it', async () => {
      const a = await createTestAccount(h);
      const write = async (method: 'POST' | 'PATCH', url: string, body: object) => {
        const res = await call(h, method, `/api/v1${url}`, { key: a.key, body });
        assert.ok(res.statusCode < 300, `${method} ${url}: ${res.body}`);
        return res.json();
      };
      const org = await write('POST', '/orgs', { name: 'Initech' });
      const won = await write('POST', '/deals', { org_id: org.id, title: 'Renewal', value: '1200.50', currency: 'EUR' });
      await write('PATCH', `/deals/${won.id}`, { status: 'won' });
      const lost = await write('POST', '/deals', { org_id: org.id, title: 'Upsell' });
      await write('PATCH', `/deals/${lost.id}`, { status: 'lost', lost_reason: { code: 'price', label: 'Too expensive' } });
      const plain = await write('POST', '/deals', { org_id: org.id, title: 'Lost without a reason' });
      await write('PATCH', `/deals/${plain.id}`, { status: 'lost' });
      await write('POST', `/deals/${won.id}/activities`, {
        source_app: 'crm',
        message: 'Called ✓ "quoted"',
        activity_kind: 'call',
        outcome: 'success',
        metadata_json: { a: [1] },
      });
      const ticket = await write('POST', '/support/tickets', {
        source_app: 'helpdesk',
        external_org_id: 'tenant-1',
        org_name: 'Initech',
        title: 'Login fails',
        details: 'SSO loop',
        contact_email: 'it@initech.example',
      });
      await write('POST', `/support/tickets/${ticket.id}/logs`, { note: 'Looking', channel: 'email' });
      await write('PATCH', `/support/tickets/${ticket.id}`, { status: 'closed' });
      await write('PATCH', `/support/tickets/${ticket.id}`, { status: 'pending' });

      const events = await outboxOf(h.db, a.accountId);
      assert.deepEqual(new Set(events.map((e) => e.event_type)), new Set(EVENT_TYPES), 'all seven events were emitted');
      for (const { event_type, payload } of events) {
        const validate = schemaOf(event_type);
        assert.ok(validate(payload), `${event_type}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(payload)}`);
      }
    });
  });
}
