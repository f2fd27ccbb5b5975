import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { assertError } from '../helpers/route-checks.ts';
import { seedContact, seedDeal, seedOrg } from './deals.fixtures.ts';

const T0 = Date.UTC(2026, 10, 1);

for (const engine of engines()) {
  describe(`GET /deals/search [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function world() {
      const a = await createTestAccount(h);
      const org1 = await seedOrg(h, a.accountId, 'One');
      const org2 = await seedOrg(h, a.accountId, 'Two');
      const pat = await seedContact(h, a.accountId, org1, 'Pat.Lee@Acme.io');
      const sam = await seedContact(h, a.accountId, org2, 'sam@globex.com');
      const d1 = await seedDeal(h, a.accountId, { org_id: org1, contact_id: pat, payment_customer_id: 'cus_A', created_at: T0 });
      const d2 = await seedDeal(h, a.accountId, { org_id: org1, contact_id: pat, payment_customer_id: 'cus_B', created_at: T0 + 1 });
      const d3 = await seedDeal(h, a.accountId, { org_id: org2, contact_id: sam, payment_customer_id: 'cus_A', created_at: T0 + 2 });
      const d4 = await seedDeal(h, a.accountId, { org_id: org2, created_at: T0 + 3 });
      return { a, org1, org2, d1, d2, d3, d4 };
    }

    const found = async (key: string, query: Record<string, string | number>) => {
      const res = await call(h, 'GET', '/api/v1/deals/search', { key, query });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    test('each criterion alone, newest first, as a list response', async () => {
      const w = await world();
      const byCustomer = await found(w.a.key, { payment_customer_id: 'cus_A' });
      assert.deepEqual(
        byCustomer.data.map((d: any) => d.id),
        [w.d3, w.d1],
      );
      assert.deepEqual(byCustomer.pagination, { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false });
      assert.equal(byCustomer.data[0].payment_customer_id, 'cus_A');
      assert.deepEqual(
        (await found(w.a.key, { contact_email: 'pat.lee@acme.io' })).data.map((d: any) => d.id),
        [w.d2, w.d1],
      );
      assert.deepEqual(
        (await found(w.a.key, { contact_email: 'PAT.LEE@ACME.IO' })).data.map((d: any) => d.id),
        [w.d2, w.d1],
      );
      assert.deepEqual(
        (await found(w.a.key, { org_id: w.org2 })).data.map((d: any) => d.id),
        [w.d4, w.d3],
      );
    });

    test('criteria combine with AND; exact matches only', async () => {
      const w = await world();
      assert.deepEqual(
        (await found(w.a.key, { payment_customer_id: 'cus_A', org_id: w.org1 })).data.map((d: any) => d.id),
        [w.d1],
      );
      assert.deepEqual(
        (await found(w.a.key, { payment_customer_id: 'cus_A', contact_email: 'sam@globex.com' })).data.map((d: any) => d.id),
        [w.d3],
      );
      assert.deepEqual((await found(w.a.key, { payment_customer_id: 'cus_B', org_id: w.org2 })).data, []);
      assert.deepEqual((await found(w.a.key, { payment_customer_id: 'cus_' })).data, [], 'no prefix match');
      assert.deepEqual((await found(w.a.key, { contact_email: 'pat.lee@acme.com' })).data, []);
      const malformed = await call(h, 'GET', '/api/v1/deals/search', { key: w.a.key, query: { contact_email: 'not-an-email' } });
      assert.equal(malformed.statusCode, 422);
      assert.equal(malformed.json().fields.contact_email, 'invalid_format');
      assert.deepEqual((await found(w.a.key, { payment_customer_id: 'cus_%' })).data, []);
    });

    test('paginates', async () => {
      const w = await world();
      const p = await found(w.a.key, { org_id: w.org1, per_page: 1, page: 2 });
      assert.deepEqual(
        p.data.map((d: any) => d.id),
        [w.d1],
      );
      assert.deepEqual(p.pagination, { page: 2, per_page: 1, total: 2, pages: 2, has_next: false, has_prev: true });
    });

    test('no criterion is 422 naming all three; bad values are 422 naming the field', async () => {
      const a = await createTestAccount(h);
      const none = assertError(await call(h, 'GET', '/api/v1/deals/search', { key: a.key }), 422, 'validation_error');
      assert.deepEqual(none.fields, { payment_customer_id: 'required', contact_email: 'required', org_id: 'required' });
      const onlyPaging = assertError(await call(h, 'GET', '/api/v1/deals/search', { key: a.key, query: { page: 1 } }), 422, 'validation_error');
      assert.ok(onlyPaging.fields.org_id);
      for (const [query, field] of [
        [{ org_id: 'x' }, 'org_id'],
        [{ org_id: 0 }, 'org_id'],
        [{ payment_customer_id: '' }, 'payment_customer_id'],
        [{ contact_email: '' }, 'contact_email'],
        [{ org_id: 1, per_page: 500 }, 'per_page'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/deals/search', { key: a.key, query: query as any }), 422, 'validation_error');
        assert.ok(body.fields[field], `${JSON.stringify(query)}: ${JSON.stringify(body.fields)}`);
      }
    });

    test("tenancy: another account's org is 404; its deals never match", async () => {
      const w = await world();
      const b = await createTestAccount(h);
      const orgB = await seedOrg(h, b.accountId);
      const contactB = await seedContact(h, b.accountId, orgB, 'pat.lee@acme.io');
      await seedDeal(h, b.accountId, { org_id: orgB, contact_id: contactB, payment_customer_id: 'cus_A' });
      assertError(await call(h, 'GET', '/api/v1/deals/search', { key: w.a.key, query: { org_id: orgB } }), 404, 'org_not_found');
      assert.deepEqual(
        (await found(w.a.key, { payment_customer_id: 'cus_A' })).data.map((d: any) => d.id),
        [w.d3, w.d1],
      );
      assert.deepEqual(
        (await found(w.a.key, { contact_email: 'pat.lee@acme.io' })).data.map((d: any) => d.id),
        [w.d2, w.d1],
      );
      assert.equal((await found(b.key, { payment_customer_id: 'cus_A' })).pagination.total, 1);
    });
  });
}
