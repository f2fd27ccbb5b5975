import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { assertError, sign } from '../helpers/route-checks.ts';
import { tableCounts } from '../helpers/counts.ts';

// A write route every build has (orgs:write): used to exercise body handling and the check order.
const WRITE = '/api/v1/orgs/resolve';

for (const engine of engines()) {
  describe(`HTTP conventions [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    test('unknown routes are 404 not_found in the error model, with X-Request-Id', async () => {
      const a = await createTestAccount(h);
      assertError(await call(h, 'GET', '/api/v1/no-such-thing', { key: a.key }), 404, 'not_found');
      assertError(await call(h, 'GET', '/nowhere'), 404, 'not_found');
    });

    test('a known path with a wrong method is 405 method_not_allowed with Allow', async () => {
      const a = await createTestAccount(h);
      const res = await call(h, 'DELETE', '/api/v1/orgs', { key: a.key });
      assertError(res, 405, 'method_not_allowed');
      assert.match(String(res.headers.allow), /GET/);
      const patch = await call(h, 'PATCH', '/api/v1/orgs/resolve', { key: a.key });
      assertError(patch, 405, 'method_not_allowed');
      assert.equal(patch.headers.allow, 'POST', 'the static route hides /orgs/{id}');
      const get = await call(h, 'GET', '/api/v1/orgs/resolve', { key: a.key });
      assertError(get, 405, 'method_not_allowed');
      assert.equal(get.headers.allow, 'POST');
      // Routing answers before authentication: the same 405 (and 404) without a key.
      const anonymous = await call(h, 'PATCH', '/api/v1/orgs/resolve');
      assertError(anonymous, 405, 'method_not_allowed');
      assert.equal(anonymous.headers.allow, 'POST');
      assertError(await call(h, 'DELETE', '/api/v1/orgs'), 405, 'method_not_allowed');
      assertError(await call(h, 'GET', '/api/v1/no-such-thing'), 404, 'not_found');
      // A non-integer id on a parameterised route stays a 422 naming the parameter.
      const bad = assertError(await call(h, 'GET', '/api/v1/deals/abc', { key: a.key }), 422, 'validation_error');
      assert.ok(bad.fields.id);
    });

    test('malformed JSON: 401 without a key, 422 fields.body=invalid_json with one; nothing written', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      assertError(await call(h, 'POST', WRITE, { body: '{"source_app": ' }), 401, 'unauthorized');
      const body = assertError(await call(h, 'POST', WRITE, { key: a.key, body: '{"source_app": ' }), 422, 'validation_error');
      assert.deepEqual(body.fields, { body: 'invalid_json' });
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('a __proto__ or constructor.prototype key anywhere in a body is 422 forbidden_key on its top-level field; nothing written', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      // [raw body, expected fields as JSON] (a "__proto__" key cannot be written as an object literal).
      const cases: [string, string][] = [
        ['{"source_app":"crm","external_org_id":"x","org_name":"A","metadata":{"a":[{"__proto__":{"admin":true}}]}}', '{"metadata":"forbidden_key"}'],
        ['{"__proto__":{"admin":true},"source_app":"crm","external_org_id":"x","org_name":"A"}', '{"__proto__":"forbidden_key"}'],
        ['{"source_app":"crm","external_org_id":"x","org_name":"A","constructor":{"prototype":{"admin":true}}}', '{"constructor":"forbidden_key"}'],
        ['[{"__proto__":1}]', '{"body":"forbidden_key"}'],
      ];
      for (const [raw, fields] of cases) {
        const body = assertError(await call(h, 'POST', WRITE, { key: a.key, body: raw }), 422, 'validation_error');
        assert.deepEqual(body.fields, JSON.parse(fields), raw);
      }
      assert.deepEqual(await tableCounts(h.db), before);
      // The same words as values, or a "constructor" key without "prototype", are ordinary data.
      const org = await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: '{"name":"__proto__ constructor prototype"}' });
      assert.equal(org.statusCode, 201, org.body);
      const ctor = assertError(await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: '{"name":"N","constructor":{"x":1}}' }), 422, 'validation_error');
      assert.deepEqual(Object.entries(ctor.fields), [['constructor', 'unknown_field']]);
    });

    test('a NUL character anywhere (query, path, body, keys) is 422 invalid_character naming the field; nothing written', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      const q = assertError(await call(h, 'GET', '/api/v1/orgs', { key: a.key, query: { q: 'a\u0000b' } }), 422, 'validation_error');
      assert.deepEqual(q.fields, { q: 'invalid_character' });
      const s = assertError(await call(h, 'GET', '/api/v1/deals/search', { key: a.key, query: { payment_customer_id: '\u0000' } }), 422, 'validation_error');
      assert.deepEqual(s.fields, { payment_customer_id: 'invalid_character' });
      const b = assertError(
        await call(h, 'POST', WRITE, { key: a.key, body: { source_app: 'crm', external_org_id: 'x', org_name: 'A\u0000' } }),
        422,
        'validation_error',
      );
      assert.deepEqual(b.fields, { org_name: 'invalid_character' });
      const nested = assertError(
        await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'N', external_ids: [{ source_app: 's', external_org_id: '\u0000' }] } }),
        422,
        'validation_error',
      );
      assert.deepEqual(nested.fields, { 'external_ids.0.external_org_id': 'invalid_character' });
      // Under a key with no name the NUL is refused too; with no name to give, the field named is the body.
      const unnamed = assertError(await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'N', '': '\u0000' } }), 422, 'validation_error');
      assert.deepEqual(unnamed.fields, { body: 'invalid_character' });
      // The check follows authentication: without a key it is still 401.
      assertError(await call(h, 'GET', '/api/v1/orgs', { query: { q: '\u0000' } }), 401, 'unauthorized');
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('an empty JSON body is an empty object: each required field is named', async () => {
      const a = await createTestAccount(h);
      const res = await h.app.inject({ method: 'POST', url: WRITE, headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' } });
      const body = assertError(res as any, 422, 'validation_error');
      assert.deepEqual(body.fields, { source_app: 'required', external_org_id: 'required' });
    });

    test('a deeply nested body is 422 body too_deep, never a 500; nothing written', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      const deepObject = '{"metadata_json":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '}';
      const deepArray = '{"audience_ids":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
      for (const [body, field] of [
        [deepObject, 'metadata_json'],
        [deepArray, 'audience_ids'],
        ['['.repeat(10_000) + ']'.repeat(10_000), 'body'],
      ]) {
        const res = assertError(await call(h, 'POST', WRITE, { key: a.key, body, headers: { 'idempotency-key': 'deep' } }), 422, 'validation_error');
        assert.deepEqual(res.fields, { [field]: 'too_deep' });
      }
      // Still after authentication.
      assertError(await call(h, 'POST', WRITE, { body: deepArray }), 401, 'unauthorized');
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('a body over 1 MiB is 413 payload_too_large', async () => {
      const a = await createTestAccount(h);
      const big = JSON.stringify({ source_app: 'x', external_org_id: 'y', org_name: 'z'.repeat(1024 * 1024) });
      assertError(await call(h, 'POST', WRITE, { key: a.key, body: big }), 413, 'payload_too_large');
    });

    test('a body that is not JSON is 415 unsupported_media_type', async () => {
      const a = await createTestAccount(h);
      const res = await call(h, 'POST', WRITE, { key: a.key, body: 'source_app=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assertError(res, 415, 'unsupported_media_type');
      const text = await call(h, 'POST', WRITE, { key: a.key, body: '{"source_app":"x"}', headers: { 'content-type': 'text/plain' } });
      assertError(text, 415, 'unsupported_media_type');
    });

    test('check order: authentication → signature → rate limit → scope → validation → existence', async () => {
      const a = await createTestAccount(h);
      // 401 beats a bad signature.
      assertError(await call(h, 'GET', '/api/v1/orgs', { key: 'cok_wrong', headers: { 'x-service-signature': 'bad' } }), 401, 'unauthorized');
      // Signature (403) beats the rate limit: an exhausted narrow key with a bad signature.
      const narrow = await a.keyWith(['users:read'], 1);
      assert.equal((await call(h, 'GET', '/api/v1/users', { key: narrow })).statusCode, 200);
      const badSignature = await call(h, 'GET', '/api/v1/orgs', { key: narrow, headers: { 'x-service-signature': 'bad' } });
      assertError(badSignature, 403, 'forbidden');
      assert.equal(badSignature.headers['ratelimit-limit'], '1', 'refused requests carry the rate-limit headers too');
      // Rate limit (429) beats the missing scope.
      assertError(await call(h, 'GET', '/api/v1/orgs', { key: narrow }), 429, 'rate_limited');
      // Scope (403) beats validation.
      const other = await a.keyWith(['users:read']);
      const scoped = assertError(await call(h, 'GET', '/api/v1/orgs', { key: other, query: { per_page: 1000 } }), 403, 'forbidden');
      assert.deepEqual(scoped.required_scopes, ['orgs:read', 'read', '*']);
      // Validation (422) beats existence (404).
      assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: 999999, per_page: 0 } }), 422, 'validation_error');
      assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: 999999 } }), 404, 'org_not_found');
    });

    test('a correct X-Service-Signature is accepted, on an empty and on a JSON body', async () => {
      const a = await createTestAccount(h);
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: a.key, headers: { 'x-service-signature': sign(a.key, '') } })).statusCode, 200);
      const body = JSON.stringify({ source_app: 'crm', external_org_id: 'sig-1' });
      const res = await call(h, 'POST', WRITE, { key: a.key, body, headers: { 'x-service-signature': sign(a.key, body) } });
      assert.notEqual(res.statusCode, 403, res.body);
      const wrong = await call(h, 'POST', WRITE, { key: a.key, body, headers: { 'x-service-signature': sign(a.key, body + ' ') } });
      assertError(wrong, 403, 'forbidden');
    });

    test('rate limit: headers on every response, 429 rate_limited with Retry-After, budgets per key', async () => {
      const a = await createTestAccount(h);
      const limited = await a.keyWith(['*'], 3);
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await call(h, 'GET', '/api/v1/orgs', { key: limited });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], '3');
        seen.push(String(res.headers['ratelimit-remaining']));
        const reset = Number(res.headers['ratelimit-reset']);
        assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
      }
      assert.deepEqual(seen, ['2', '1', '0']);
      const over = await call(h, 'GET', '/api/v1/orgs', { key: limited });
      assertError(over, 429, 'rate_limited');
      const retry = Number(over.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);
      assert.equal(over.headers['ratelimit-remaining'], '0');
      // Another key of the same account has its own budget.
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: a.key })).statusCode, 200);
    });

    test('health, readiness, the OpenAPI document and /docs need no key', async () => {
      assert.deepEqual((await call(h, 'GET', '/healthz')).json(), { status: 'ok' });
      assert.deepEqual((await call(h, 'GET', '/readyz')).json(), { status: 'ready', checks: { database: 'up', rate_limit: 'memory' } });
      const doc = (await call(h, 'GET', '/api/v1/openapi.json')).json();
      assert.equal(doc.openapi, '3.1.0');
      const docs = await h.app.inject({ method: 'GET', url: '/docs/' });
      assert.equal(docs.statusCode, 200);
      assert.match(String(docs.headers['content-type']), /html/);
    });
  });
}

describe('default rate limit of 60 per minute', () => {
  test('the 61st request in a minute is refused', async () => {
    const h = await createHarness('sqlite', { env: { CUSTOPS_RATE_LIMIT_PER_MINUTE: '60' } });
    try {
      const a = await createTestAccount(h);
      for (let i = 0; i < 60; i++) assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: a.key })).statusCode, 200);
      assertError(await call(h, 'GET', '/api/v1/orgs', { key: a.key }), 429, 'rate_limited');
    } finally {
      await h.close();
    }
  });
});
