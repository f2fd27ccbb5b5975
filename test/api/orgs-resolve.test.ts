import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertRefusesAll, badBodies, insertContact, insertOrg, linkPair } from '../helpers/support-fixtures.ts';

const URL = '/api/v1/orgs/resolve';
const T0 = Date.UTC(2026, 0, 1);
const NOW = '2026-11-20T10:00:00.000Z';

for (const engine of engines()) {
  describe(`POST /orgs/resolve [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
    });
    after(() => h.close());

    const resolve = (a: TestAccount, body: Record<string, unknown>) => call(h, 'POST', URL, { key: a.key, body });
    const links = (a: TestAccount) =>
      h.db
        .selectFrom('org_external_ids')
        .select(['org_id', 'source_app', 'external_org_id'])
        .where('account_id', '=', a.accountId)
        .orderBy('id')
        .execute()
        .then((rows) => rows.map((r) => ({ org_id: Number(r.org_id), source_app: r.source_app, external_org_id: r.external_org_id })));

    test('a mapped pair answers mapped with the org, ignoring hints', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme Corp', T0, 'acme.io');
      await insertOrg(h, a.accountId, 'Other');
      await linkPair(h, a.accountId, org, 'billing', 't-1');
      const res = await resolve(a, { source_app: 'billing', external_org_id: 't-1', org_name: 'Other' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        status: 'mapped',
        org: {
          id: org,
          name: 'Acme Corp',
          domain: 'acme.io',
          external_ids: [{ source_app: 'billing', external_org_id: 't-1' }],
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      });
      // A mapped pair needs no hints at all.
      assert.equal((await resolve(a, { source_app: 'billing', external_org_id: 't-1' })).json().status, 'mapped');
      assert.deepEqual(await outboxOf(h.db, a.accountId), []);
    });

    test('links by contact e-mail (case-insensitive), then answers mapped', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Initech');
      await insertOrg(h, a.accountId, 'Initrode');
      await insertContact(h, a.accountId, org, { email: 'Peter@Initech.com', name: 'Peter' });
      const res = await resolve(a, { source_app: 'crm', external_org_id: 'ext-9', contact_email: 'peter@INITECH.com' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        status: 'linked',
        org: {
          id: org,
          name: 'Initech',
          domain: null,
          external_ids: [{ source_app: 'crm', external_org_id: 'ext-9' }],
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: NOW,
        },
      });
      assert.deepEqual(await links(a), [{ org_id: org, source_app: 'crm', external_org_id: 'ext-9' }]);
      const again = await resolve(a, { source_app: 'crm', external_org_id: 'ext-9' });
      assert.equal(again.json().status, 'mapped');
      assert.equal(again.json().org.id, org);
    });

    test('links by org name, case-insensitively and ignoring surrounding spaces', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Zürich Bank');
      await insertOrg(h, a.accountId, 'Zürich Bank Holdings');
      const res = await resolve(a, { source_app: 'crm', external_org_id: 'z', org_name: '  ZÜRICH BANK ' });
      assert.equal(res.json().status, 'linked');
      assert.equal(res.json().org.id, org);
    });

    test('name matching is exact: a substring or LIKE pattern matches nothing', async () => {
      const a = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Acme Corp');
      for (const org_name of ['Acme', 'Acme%', 'Acme_Corp', '%']) {
        assertError(await resolve(a, { source_app: 'crm', external_org_id: 'x', org_name }), 404, 'org_not_found');
      }
      assert.deepEqual(await links(a), []);
    });

    test('both hints: the orgs both found win', async () => {
      const a = await createTestAccount(h);
      const one = await insertOrg(h, a.accountId, 'Alpha');
      const two = await insertOrg(h, a.accountId, 'Beta');
      await insertContact(h, a.accountId, one, { email: 'shared@x.io' });
      await insertContact(h, a.accountId, two, { email: 'shared@x.io' });
      const res = await resolve(a, { source_app: 'crm', external_org_id: 'b', contact_email: 'shared@x.io', org_name: 'beta' });
      assert.equal(res.json().status, 'linked');
      assert.equal(res.json().org.id, two);
    });

    test('both hints pointing at different orgs is ambiguous', async () => {
      const a = await createTestAccount(h);
      const one = await insertOrg(h, a.accountId, 'Alpha');
      await insertOrg(h, a.accountId, 'Beta');
      await insertContact(h, a.accountId, one, { email: 'who@alpha.io' });
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'c', contact_email: 'who@alpha.io', org_name: 'Beta' }), 409, 'org_ambiguous');
      assert.deepEqual(await links(a), []);
    });

    test('a hint that finds nothing gives way to the one that does', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Gamma');
      const byName = await resolve(a, { source_app: 'crm', external_org_id: 'd1', contact_email: 'nobody@x.io', org_name: 'gamma' });
      assert.equal(byName.json().org.id, org);
      const other = await insertOrg(h, a.accountId, 'Delta');
      await insertContact(h, a.accountId, other, { email: 'd@delta.io' });
      const byEmail = await resolve(a, { source_app: 'crm', external_org_id: 'd2', contact_email: 'd@delta.io', org_name: 'No Such Org' });
      assert.equal(byEmail.json().org.id, other);
    });

    test('several orgs of one name: 409 org_ambiguous, narrowed by contact_name', async () => {
      const a = await createTestAccount(h);
      const one = await insertOrg(h, a.accountId, 'Twin');
      const two = await insertOrg(h, a.accountId, 'twin');
      await insertContact(h, a.accountId, one, { name: 'Ann Lee' });
      await insertContact(h, a.accountId, two, { name: 'Bob Ray' });
      const body = assertError(await resolve(a, { source_app: 'crm', external_org_id: 'e', org_name: 'Twin' }), 409, 'org_ambiguous');
      assert.match(body.message, /2 organizations/);
      // A contact_name nobody has does not narrow.
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'e', org_name: 'Twin', contact_name: 'Zed' }), 409, 'org_ambiguous');
      const res = await resolve(a, { source_app: 'crm', external_org_id: 'e', org_name: 'TWIN', contact_name: 'bob ray' });
      assert.equal(res.json().status, 'linked');
      assert.equal(res.json().org.id, two);
    });

    test('nothing matches: 404 org_not_found and no link', async () => {
      const a = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Acme');
      const before = await tableCounts(h.db);
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'f', org_name: 'Nope', contact_email: 'no@no.io' }), 404, 'org_not_found');
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('an unmapped pair without hints: 422 org_lookup_required', async () => {
      const a = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Acme');
      for (const extra of [{}, { contact_name: 'Ann' }, { org_name: '   ' }]) {
        const res = await resolve(a, { source_app: 'crm', external_org_id: 'g', ...extra });
        assertError(res, 422, 'org_lookup_required');
      }
      assert.deepEqual(await links(a), []);
    });

    test('another account: its orgs, contacts and links are invisible', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const theirs = await insertOrg(h, b.accountId, 'Hidden Co');
      await insertContact(h, b.accountId, theirs, { email: 'x@hidden.co' });
      await linkPair(h, b.accountId, theirs, 'crm', 'shared-id');
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'h', org_name: 'Hidden Co' }), 404, 'org_not_found');
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'h', contact_email: 'x@hidden.co' }), 404, 'org_not_found');
      assertError(await resolve(a, { source_app: 'crm', external_org_id: 'shared-id' }), 422, 'org_lookup_required');
      // The same pair may be linked independently in each account.
      const mine = await insertOrg(h, a.accountId, 'Mine');
      const res = await resolve(a, { source_app: 'crm', external_org_id: 'shared-id', org_name: 'mine' });
      assert.deepEqual([res.json().status, res.json().org.id], ['linked', mine]);
    });

    test('simultaneous first resolves of one pair link it once', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Race Inc');
      const results = await Promise.all(Array.from({ length: 6 }, () => resolve(a, { source_app: 'race', external_org_id: 'r-1', org_name: 'Race Inc' })));
      assert.deepEqual(
        results.map((r) => r.statusCode),
        [200, 200, 200, 200, 200, 200],
      );
      const statuses = results.map((r) => r.json().status).sort();
      assert.deepEqual(statuses, ['linked', 'mapped', 'mapped', 'mapped', 'mapped', 'mapped']);
      assert.ok(results.every((r) => r.json().org.id === org));
      assert.deepEqual(await links(a), [{ org_id: org, source_app: 'race', external_org_id: 'r-1' }]);
    });

    test('validation: each bad field is named', async () => {
      const a = await createTestAccount(h);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ external_org_id: 'x', org_name: 'A' }, 'source_app', 'required'],
        [{ source_app: 'x', org_name: 'A' }, 'external_org_id', 'required'],
        [{ source_app: 1, external_org_id: 'x' }, 'source_app', 'invalid_type'],
        [{ source_app: 'x', external_org_id: 5 }, 'external_org_id', 'invalid_type'],
        [{ source_app: 'x', external_org_id: 'y', contact_email: 'nope' }, 'contact_email', 'invalid_format'],
        [{ source_app: 'x', external_org_id: 'y', org_name: '' }, 'org_name', 'too_short'],
        [{ source_app: 'x', external_org_id: 'y', org_id: 3 }, 'org_id', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        const err = assertError(await resolve(a, body), 422, 'validation_error');
        assert.equal(err.fields[field], reason, JSON.stringify(body));
      }
      const bad = assertError(await call(h, 'POST', URL, { key: a.key, body: '{"source_app":' }), 422, 'validation_error');
      assert.deepEqual(bad.fields, { body: 'invalid_json' });
    });

    test('property: bad bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Acme');
      const valid = { source_app: 'crm', external_org_id: 'p-1', org_name: 'Acme', contact_email: 'a@acme.io', contact_name: 'Ann' };
      const spec = {
        source_app: { kind: 'string', required: true },
        external_org_id: { kind: 'string', required: true },
        org_name: { kind: 'string' },
        contact_email: { kind: 'email' },
        contact_name: { kind: 'string' },
        idempotency_key: { kind: 'string' },
      } as const;
      await assertRefusesAll(h, badBodies(valid, spec), (body) => resolve(a, body), { numRuns: 40 });
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'POST', url: URL, scope: 'orgs:write', body: { source_app: 'x', external_org_id: 'y' } });
      const readKey = await a.keyWith(['read', 'orgs:read']);
      assertError(await call(h, 'POST', URL, { key: readKey, body: { source_app: 'x', external_org_id: 'y' } }), 403, 'forbidden');
    });
  });
}
