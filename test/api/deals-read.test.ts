import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { seedContact, seedDeal, seedOrg, seedUser } from './deals.fixtures.ts';

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

for (const engine of engines()) {
  describe(`GET /deals and /deals/{id} [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const ids = async (key: string, query: Record<string, string | number>) => {
      const res = await call(h, 'GET', '/api/v1/deals', { key, query });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((d: { id: number }) => d.id);
    };

    test('lists newest first with the full deal JSON and pagination; GET /deals/{id} is the same object', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const owner = await seedUser(h, a.accountId);
      const contact = await seedContact(h, a.accountId, org, 'pat@acme.io');
      const older = await seedDeal(h, a.accountId, { org_id: org, title: 'Older', created_at: T0 });
      const newer = await seedDeal(h, a.accountId, {
        org_id: org,
        title: 'Renewal',
        status: 'proposal',
        created_at: T0 + 1000,
        owner_user_id: owner,
        contact_id: contact,
        value_cents: 125000,
        currency: 'EUR',
        payment_customer_id: 'cus_1',
      });
      const res = await call(h, 'GET', '/api/v1/deals', { key: a.key });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(
        body.data.map((d: any) => d.id),
        [newer, older],
      );
      const expected = {
        id: newer,
        org_id: org,
        contact_id: contact,
        owner_user_id: owner,
        title: 'Renewal',
        status: 'proposal',
        value: '1250.00',
        currency: 'EUR',
        payment_customer_id: 'cus_1',
        next_followup_at: null,
        lost_reason: null,
        closed_at: null,
        closed_by_user_id: null,
        last_activity_at: '2026-11-20T12:00:01.000Z',
        created_at: '2026-11-20T12:00:01.000Z',
        updated_at: '2026-11-20T12:00:01.000Z',
      };
      assert.deepEqual(body.data[0], expected);
      assert.equal(body.data[1].value, null);
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false });
      const one = await call(h, 'GET', `/api/v1/deals/${newer}`, { key: a.key });
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json(), expected);
    });

    test('value renders minor units as a two-decimal string', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      for (const [cents, text] of [
        [0, '0.00'],
        [5, '0.05'],
        [1050, '10.50'],
        [99999999999, '999999999.99'],
      ] as const) {
        const id = await seedDeal(h, a.accountId, { org_id: org, value_cents: cents });
        assert.equal((await call(h, 'GET', `/api/v1/deals/${id}`, { key: a.key })).json().value, text);
      }
    });

    test('filters: status, org_id, owner_user_id, q', async () => {
      const a = await createTestAccount(h);
      const org1 = await seedOrg(h, a.accountId, 'One');
      const org2 = await seedOrg(h, a.accountId, 'Two');
      const rep = await seedUser(h, a.accountId);
      const d1 = await seedDeal(h, a.accountId, { org_id: org1, title: 'Zürich Expansion', status: 'won', created_at: T0 });
      const d2 = await seedDeal(h, a.accountId, { org_id: org2, title: '100% Upsell', owner_user_id: rep, created_at: T0 + 1 });
      const d3 = await seedDeal(h, a.accountId, { org_id: org1, title: "O'Brien_Renewal", status: 'lost', owner_user_id: rep, created_at: T0 + 2 });
      const d4 = await seedDeal(h, a.accountId, { org_id: org2, title: 'back\\slash deal', status: 'won', created_at: T0 + 3 });
      assert.deepEqual(await ids(a.key, { status: 'won' }), [d4, d1]);
      assert.deepEqual(await ids(a.key, { status: 'qualified' }), []);
      assert.deepEqual(await ids(a.key, { org_id: org1 }), [d3, d1]);
      assert.deepEqual(await ids(a.key, { owner_user_id: rep }), [d3, d2]);
      assert.deepEqual(await ids(a.key, { owner_user_id: rep, org_id: org2 }), [d2]);
      assert.deepEqual(await ids(a.key, { q: 'ZÜRICH' }), [d1]);
      assert.deepEqual(await ids(a.key, { q: 'expansion' }), [d1]);
      assert.deepEqual(await ids(a.key, { q: '%' }), [d2]);
      assert.deepEqual(await ids(a.key, { q: '_' }), [d3]);
      assert.deepEqual(await ids(a.key, { q: "'" }), [d3]);
      assert.deepEqual(await ids(a.key, { q: '\\' }), [d4]);
      assert.deepEqual(await ids(a.key, { q: 'no such deal' }), []);
      assert.deepEqual(await ids(a.key, { q: '' }), [d4, d3, d2, d1]);
    });

    test('every sort field in both directions, ties by id in the same direction', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      // Inserted so that id order, created order, updated order, title order and status order all differ.
      const x = await seedDeal(h, a.accountId, { org_id: org, title: 'banana', status: 'won', created_at: T0 + 20, updated_at: T0 + 100 });
      const y = await seedDeal(h, a.accountId, { org_id: org, title: 'Apple', status: 'proposal', created_at: T0 + 10, updated_at: T0 + 300 });
      const z = await seedDeal(h, a.accountId, { org_id: org, title: 'cherry', status: 'lost', created_at: T0 + 30, updated_at: T0 + 200 });
      const w = await seedDeal(h, a.accountId, { org_id: org, title: 'Date', status: 'won', created_at: T0 + 10, updated_at: T0 + 50 });
      const cases: [string, number[]][] = [
        ['created_at', [y, w, x, z]],
        ['updated_at', [w, x, z, y]],
        ['id', [x, y, z, w]],
        ['title', [y, x, z, w]],
        ['status', [z, y, x, w]],
      ];
      for (const [sort, asc] of cases) {
        assert.deepEqual(await ids(a.key, { sort, direction: 'asc' }), asc, `${sort} asc`);
        assert.deepEqual(await ids(a.key, { sort, direction: 'desc' }), [...asc].reverse(), `${sort} desc`);
      }
      assert.deepEqual(await ids(a.key, { sort: 'title' }), [w, z, x, y], 'direction defaults to desc');
      assert.deepEqual(await ids(a.key, {}), [z, x, w, y], 'default created_at desc, ties by id desc');
    });

    test('pagination arithmetic and a page past the end', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const all: number[] = [];
      for (let i = 0; i < 5; i++) all.push(await seedDeal(h, a.accountId, { org_id: org, created_at: T0 + i }));
      const res = (await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { page: 2, per_page: 2 } })).json();
      assert.deepEqual(
        res.data.map((d: any) => d.id),
        [all[2], all[1]],
      );
      assert.deepEqual(res.pagination, { page: 2, per_page: 2, total: 5, pages: 3, has_next: true, has_prev: true });
      const past = (await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { page: 9, per_page: 2 } })).json();
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { page: 9, per_page: 2, total: 5, pages: 3, has_next: false, has_prev: true });
    });

    test('the page and its total of one status, first pages of common and other sizes, a status with no deals, an empty account', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const won: number[] = [];
      for (const title of ['Cedar', 'alder', 'Birch']) won.push(await seedDeal(h, a.accountId, { org_id: org, title, status: 'won', created_at: T0 }));
      await seedDeal(h, a.accountId, { org_id: org, status: 'lost', created_at: T0 + 9 });
      const list = async (key: string, query: Record<string, string | number>) => (await call(h, 'GET', '/api/v1/deals', { key, query })).json();
      const page2 = await list(a.key, { status: 'won', sort: 'title', direction: 'asc', page: 2, per_page: 2 });
      // Titles compare case-insensitively: alder, Birch, Cedar.
      assert.deepEqual(
        page2.data.map((d: any) => d.id),
        [won[0]],
      );
      assert.deepEqual(page2.pagination, { page: 2, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true });
      // First pages of a common size (10, 50, 100) and of another (7) give the same rows.
      for (const per_page of [7, 10, 50, 100]) {
        const first = await list(a.key, { status: 'won', sort: 'title', direction: 'desc', per_page });
        assert.deepEqual(
          first.data.map((d: any) => d.id),
          [won[0], won[2], won[1]],
          `per_page ${per_page}`,
        );
        assert.equal(first.pagination.total, 3);
      }
      const past = await list(a.key, { status: 'won', page: 5, per_page: 2 });
      assert.deepEqual(past, { data: [], pagination: { page: 5, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true } });
      assert.deepEqual(await list(a.key, { status: 'proposal' }), {
        data: [],
        pagination: { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false },
      });
      const empty = await createTestAccount(h);
      assert.deepEqual(await list(empty.key, { sort: 'title' }), {
        data: [],
        pagination: { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false },
      });
    });

    test('created and updated date bounds are inclusive; a bare date in *_to covers the whole day', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const day = Date.UTC(2026, 10, 20);
      const early = await seedDeal(h, a.accountId, { org_id: org, created_at: day, updated_at: day + 86_400_000 * 3 });
      const late = await seedDeal(h, a.accountId, { org_id: org, created_at: day + 86_400_000 - 1, updated_at: day + 86_400_000 * 2 });
      const next = await seedDeal(h, a.accountId, { org_id: org, created_at: day + 86_400_000, updated_at: day + 86_400_000 * 2 + 1 });
      assert.deepEqual(await ids(a.key, { created_to: '2026-11-20' }), [late, early]);
      assert.deepEqual(await ids(a.key, { created_from: '2026-11-20', created_to: '2026-11-20' }), [late, early]);
      assert.deepEqual(await ids(a.key, { created_from: '2026-11-21' }), [next]);
      assert.deepEqual(await ids(a.key, { created_from: '2026-11-20T23:59:59.999Z' }), [next, late]);
      assert.deepEqual(await ids(a.key, { created_to: '2026-11-20T00:00:00' }), [early], 'no Z means UTC');
      assert.deepEqual(await ids(a.key, { created_to: '2026-11-20T00:00:00Z' }), [early]);
      assert.deepEqual(await ids(a.key, { created_from: '2026-11-20T01:00:00+01:00', created_to: '2026-11-20T00:00:00.000Z' }), [early]);
      assert.deepEqual(await ids(a.key, { updated_from: '2026-11-22T00:00:00Z', updated_to: '2026-11-22T00:00:00Z' }), [late]);
      assert.deepEqual(await ids(a.key, { updated_to: '2026-11-22' }), [next, late]);
      assert.deepEqual(await ids(a.key, { updated_from: '2026-11-23' }), [early]);
    });

    test('bad query values are 422 naming the field', async () => {
      const a = await createTestAccount(h);
      const cases: [Record<string, string | number>, string][] = [
        [{ status: 'open' }, 'status'],
        [{ status: 'WON' }, 'status'],
        [{ sort: 'value' }, 'sort'],
        [{ direction: 'up' }, 'direction'],
        [{ org_id: 'abc' }, 'org_id'],
        [{ org_id: 0 }, 'org_id'],
        [{ owner_user_id: -3 }, 'owner_user_id'],
        [{ created_from: '2026-02-30' }, 'created_from'],
        [{ created_to: '2026-13-01' }, 'created_to'],
        [{ updated_from: 'yesterday' }, 'updated_from'],
        [{ updated_to: '2026-11-20T25:00:00Z' }, 'updated_to'],
        [{ created_from: '2026-11-21', created_to: '2026-11-20' }, 'created_from'],
        [{ q: 'x'.repeat(201) }, 'q'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
      ];
      for (const [query, field] of cases) {
        const body = assertError(await call(h, 'GET', '/api/v1/deals', { key: a.key, query }), 422, 'validation_error');
        assert.ok(body.fields[field], `${JSON.stringify(query)} names ${field}: ${JSON.stringify(body.fields)}`);
      }
      assert.equal((await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { unknown: 'x' } })).statusCode, 200);
    });

    test("tenancy: other accounts' deals, orgs and users are 404 and never listed", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const orgB = await seedOrg(h, b.accountId);
      const userB = await seedUser(h, b.accountId);
      const dealB = await seedDeal(h, b.accountId, { org_id: orgB, title: 'Secret' });
      assertError(await call(h, 'GET', `/api/v1/deals/${dealB}`, { key: a.key }), 404, 'deal_not_found');
      assertError(await call(h, 'GET', '/api/v1/deals/999999999', { key: a.key }), 404, 'deal_not_found');
      assertError(await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { org_id: orgB } }), 404, 'org_not_found');
      assertError(await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { org_id: 999999999 } }), 404, 'org_not_found');
      assertError(await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { owner_user_id: userB } }), 404, 'user_not_found');
      assert.equal((await call(h, 'GET', '/api/v1/deals', { key: a.key, query: { q: 'secret' } })).json().pagination.total, 0);
      assert.equal((await call(h, 'GET', `/api/v1/deals/${dealB}`, { key: b.key })).statusCode, 200);
      const bad = assertError(await call(h, 'GET', '/api/v1/deals/abc', { key: a.key }), 422, 'validation_error');
      assert.ok(bad.fields.id);
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const id = await seedDeal(h, a.accountId, { org_id: org });
      for (const url of ['/api/v1/deals', `/api/v1/deals/${id}`, `/api/v1/deals/search?org_id=${org}`]) {
        await assertCommonAuth(h, a, { method: 'GET', url, scope: 'deals:read' });
        assert.equal((await call(h, 'GET', url, { key: await a.keyWith(['read']) })).statusCode, 200);
        assert.equal((await call(h, 'GET', url, { key: await a.keyWith(['deals:read']) })).statusCode, 200);
      }
    });
  });
}
