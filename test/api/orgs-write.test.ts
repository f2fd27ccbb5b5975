import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertRefusesAll, badBodies, insertOrg, linkPair } from '../helpers/support-fixtures.ts';

const T0 = Date.UTC(2026, 0, 1);
const NOW = '2026-11-20T10:00:00.000Z';

for (const engine of engines()) {
  describe(`org writes [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
    });
    after(() => h.close());

    describe('PUT /orgs/{org_id}/external-ids', () => {
      const put = (key: string, orgId: number, body: unknown) => call(h, 'PUT', `/api/v1/orgs/${orgId}/external-ids`, { key, body });

      test('links a pair and answers the org', async () => {
        const a = await createTestAccount(h);
        const org = await insertOrg(h, a.accountId, 'Acme', T0, 'acme.io');
        await linkPair(h, a.accountId, org, 'billing', 'b-1');
        const res = await put(a.key, org, { source_app: 'crm', external_org_id: 'c-1' });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), {
          id: org,
          name: 'Acme',
          domain: 'acme.io',
          external_ids: [
            { source_app: 'billing', external_org_id: 'b-1' },
            { source_app: 'crm', external_org_id: 'c-1' },
          ],
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: NOW,
        });
        const resolved = await call(h, 'POST', '/api/v1/orgs/resolve', { key: a.key, body: { source_app: 'crm', external_org_id: 'c-1' } });
        assert.deepEqual([resolved.json().status, resolved.json().org.id], ['mapped', org]);
        assert.deepEqual(await outboxOf(h.db, a.accountId), []);
      });

      test('relinking to the same org is a no-op', async () => {
        const a = await createTestAccount(h);
        const org = await insertOrg(h, a.accountId, 'Acme', T0);
        await linkPair(h, a.accountId, org, 'crm', 'same');
        const before = await tableCounts(h.db);
        const res = await put(a.key, org, { source_app: 'crm', external_org_id: 'same' });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json().external_ids, [{ source_app: 'crm', external_org_id: 'same' }]);
        assert.equal(res.json().updated_at, '2026-01-01T00:00:00.000Z', 'nothing changed');
        assert.deepEqual(await tableCounts(h.db), before);
      });

      test('a pair linked to another org is 409 external_id_conflict', async () => {
        const a = await createTestAccount(h);
        const one = await insertOrg(h, a.accountId, 'One');
        const two = await insertOrg(h, a.accountId, 'Two');
        await linkPair(h, a.accountId, one, 'crm', 'taken');
        const before = await tableCounts(h.db);
        assertError(await put(a.key, two, { source_app: 'crm', external_org_id: 'taken' }), 409, 'external_id_conflict');
        assert.deepEqual(await tableCounts(h.db), before);
        // Pairs are case-sensitive ids: another spelling is another pair.
        assert.equal((await put(a.key, two, { source_app: 'crm', external_org_id: 'TAKEN' })).statusCode, 200);
      });

      test('absent org and another account’s org are 404 org_not_found', async () => {
        const a = await createTestAccount(h);
        const b = await createTestAccount(h);
        const theirs = await insertOrg(h, b.accountId, 'Theirs');
        const before = await tableCounts(h.db);
        assertError(await put(a.key, theirs, { source_app: 'crm', external_org_id: 'x' }), 404, 'org_not_found');
        assertError(await put(a.key, 999999, { source_app: 'crm', external_org_id: 'x' }), 404, 'org_not_found');
        assert.deepEqual(await tableCounts(h.db), before);
        // A pair linked in another account does not conflict here.
        await linkPair(h, b.accountId, theirs, 'crm', 'both');
        const mine = await insertOrg(h, a.accountId, 'Mine');
        assert.equal((await put(a.key, mine, { source_app: 'crm', external_org_id: 'both' })).statusCode, 200);
      });

      test('bad path ids and bodies are 422', async () => {
        const a = await createTestAccount(h);
        const org = await insertOrg(h, a.accountId, 'Acme');
        for (const bad of ['abc', '0', '-1', '1.5']) {
          const err = assertError(
            await call(h, 'PUT', `/api/v1/orgs/${bad}/external-ids`, { key: a.key, body: { source_app: 'x', external_org_id: 'y' } }),
            422,
            'validation_error',
          );
          assert.ok(err.fields.org_id, bad);
        }
        const before = await tableCounts(h.db);
        await assertRefusesAll(
          h,
          badBodies(
            { source_app: 'crm', external_org_id: 'e1' },
            {
              source_app: { kind: 'string', required: true },
              external_org_id: { kind: 'string', required: true },
              idempotency_key: { kind: 'string' },
            },
          ),
          (body) => put(a.key, org, body),
          { numRuns: 40 },
        );
        assert.deepEqual(await tableCounts(h.db), before);
      });

      test('common authentication and scope checks', async () => {
        const a = await createTestAccount(h);
        const org = await insertOrg(h, a.accountId, 'Acme');
        await assertCommonAuth(h, a, {
          method: 'PUT',
          url: `/api/v1/orgs/${org}/external-ids`,
          scope: 'orgs:write',
          body: { source_app: 'x', external_org_id: 'y' },
        });
        const writer = await a.keyWith(['orgs:write']);
        assert.equal((await put(writer, org, { source_app: 'x', external_org_id: 'y' })).statusCode, 200);
      });
    });

    describe('POST /orgs and GET /orgs/{id}', () => {
      test('creates an org with external ids: 201, Location, readable', async () => {
        const a = await createTestAccount(h);
        const res = await call(h, 'POST', '/api/v1/orgs', {
          key: a.key,
          body: {
            name: 'New Co',
            domain: 'New-Co.example',
            external_ids: [
              { source_app: 'crm', external_org_id: 'n1' },
              { source_app: 'billing', external_org_id: 'n1' },
            ],
          },
        });
        assert.equal(res.statusCode, 201);
        const org = res.json();
        assert.deepEqual(org, {
          id: org.id,
          name: 'New Co',
          domain: 'New-Co.example',
          external_ids: [
            { source_app: 'crm', external_org_id: 'n1' },
            { source_app: 'billing', external_org_id: 'n1' },
          ],
          created_at: NOW,
          updated_at: NOW,
        });
        assert.equal(res.headers.location, `/api/v1/orgs/${org.id}`);
        const read = await call(h, 'GET', res.headers.location as string, { key: a.key });
        assert.deepEqual(read.json(), org);
        const minimal = await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'Bare' } });
        assert.deepEqual({ ...(minimal.json() as object), id: 0 }, { id: 0, name: 'Bare', domain: null, external_ids: [], created_at: NOW, updated_at: NOW });
        assert.deepEqual(await outboxOf(h.db, a.accountId), [], 'org creation has no catalog event');
      });

      test('a pair linked elsewhere: 409 and nothing created', async () => {
        const a = await createTestAccount(h);
        const other = await insertOrg(h, a.accountId, 'Other');
        await linkPair(h, a.accountId, other, 'crm', 'held');
        const before = await tableCounts(h.db);
        const res = await call(h, 'POST', '/api/v1/orgs', {
          key: a.key,
          body: {
            name: 'Late',
            external_ids: [
              { source_app: 'crm', external_org_id: 'free' },
              { source_app: 'crm', external_org_id: 'held' },
            ],
          },
        });
        assertError(res, 409, 'external_id_conflict');
        assert.deepEqual(await tableCounts(h.db), before);
      });

      test('GET /orgs/{id}: another account’s org and an absent one are 404', async () => {
        const a = await createTestAccount(h);
        const b = await createTestAccount(h);
        const theirs = await insertOrg(h, b.accountId, 'Theirs');
        assertError(await call(h, 'GET', `/api/v1/orgs/${theirs}`, { key: a.key }), 404, 'org_not_found');
        assertError(await call(h, 'GET', '/api/v1/orgs/999999', { key: a.key }), 404, 'org_not_found');
        assert.ok(assertError(await call(h, 'GET', '/api/v1/orgs/abc', { key: a.key }), 422, 'validation_error').fields.id);
      });

      test('bad bodies are 422 naming the field and change nothing', async () => {
        const a = await createTestAccount(h);
        const cases: [unknown, string, string][] = [
          [{}, 'name', 'required'],
          [{ name: '' }, 'name', 'too_short'],
          [{ name: 'x', domain: 'not a domain' }, 'domain', 'invalid_format'],
          [{ name: 'x', external_ids: [{ source_app: 'a' }] }, 'external_ids.0.external_org_id', 'required'],
          [
            {
              name: 'x',
              external_ids: [
                { source_app: 'a', external_org_id: 'b' },
                { source_app: 'a', external_org_id: 'b' },
              ],
            },
            'external_ids',
            'duplicate',
          ],
        ];
        const before = await tableCounts(h.db);
        for (const [body, field, reason] of cases) {
          const err = assertError(await call(h, 'POST', '/api/v1/orgs', { key: a.key, body }), 422, 'validation_error');
          assert.equal(err.fields[field], reason, JSON.stringify(body));
        }
        await assertRefusesAll(
          h,
          badBodies(
            { name: 'Valid', domain: 'valid.io', external_ids: [] },
            {
              name: { kind: 'string', required: true },
              domain: { kind: 'string', nullable: true },
              external_ids: { kind: 'array' },
              idempotency_key: { kind: 'string' },
            },
          ),
          (body) => call(h, 'POST', '/api/v1/orgs', { key: a.key, body }),
          { numRuns: 40 },
        );
        assert.deepEqual(await tableCounts(h.db), before);
      });

      test('common authentication and scope checks', async () => {
        const a = await createTestAccount(h);
        const org = await insertOrg(h, a.accountId, 'Acme');
        await assertCommonAuth(h, a, { method: 'POST', url: '/api/v1/orgs', scope: '*', body: { name: 'x' } });
        await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/orgs/${org}`, scope: 'orgs:read' });
        assertError(await call(h, 'POST', '/api/v1/orgs', { key: await a.keyWith(['orgs:write']), body: { name: 'x' } }), 403, 'forbidden');
      });
    });
  });
}
