import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';

async function insertOrg(h: Harness, accountId: number, name: string, created: number, domain: string | null = null) {
  return h.db
    .insertInto('orgs')
    .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain, created_at: created, updated_at: created })
    .returning('id')
    .executeTakeFirstOrThrow();
}

for (const engine of engines()) {
  describe(`GET /orgs [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    test('lists the account orgs newest first with external ids and pagination', async () => {
      const a = await createTestAccount(h);
      const base = Date.UTC(2026, 0, 1);
      const first = await insertOrg(h, a.accountId, 'Acme Corp', base, 'acme.io');
      const second = await insertOrg(h, a.accountId, 'Globex', base + 1000);
      await h.db
        .insertInto('org_external_ids')
        .values({ account_id: a.accountId, org_id: first.id, source_app: 'billing', external_org_id: 't-1', created_at: base })
        .execute();
      const res = await call(h, 'GET', '/api/v1/orgs', { key: a.key });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(
        body.data.map((o: any) => o.id),
        [second.id, first.id],
      );
      assert.deepEqual(body.data[1], {
        id: first.id,
        name: 'Acme Corp',
        domain: 'acme.io',
        external_ids: [{ source_app: 'billing', external_org_id: 't-1' }],
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      });
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false });
    });

    test('q matches name or domain case-insensitively and treats LIKE metacharacters literally', async () => {
      const a = await createTestAccount(h);
      const now = Date.now();
      await insertOrg(h, a.accountId, 'Zürich Bank', now);
      await insertOrg(h, a.accountId, '100% Pure', now + 1);
      await insertOrg(h, a.accountId, "O'Brien_Ltd", now + 2, 'obrien.ie');
      await insertOrg(h, a.accountId, 'Plain', now + 3, 'back\\slash.io');
      const names = async (q: string) => (await call(h, 'GET', '/api/v1/orgs', { key: a.key, query: { q } })).json().data.map((o: any) => o.name);
      assert.deepEqual(await names('ZÜRICH'), ['Zürich Bank']);
      assert.deepEqual(await names('%'), ['100% Pure']);
      assert.deepEqual(await names('_'), ["O'Brien_Ltd"]);
      assert.deepEqual(await names("'"), ["O'Brien_Ltd"]);
      assert.deepEqual(await names('\\'), ['Plain']);
      assert.deepEqual(await names('OBRIEN.IE'), ["O'Brien_Ltd"]);
      assert.deepEqual(await names('nothing-like-this'), []);
    });

    test('pagination arithmetic and a page past the end', async () => {
      const a = await createTestAccount(h);
      for (let i = 0; i < 5; i++) await insertOrg(h, a.accountId, `Org ${i}`, 1000 + i);
      const page = async (query: Record<string, number>) => (await call(h, 'GET', '/api/v1/orgs', { key: a.key, query })).json();
      const p2 = await page({ page: 2, per_page: 2 });
      assert.deepEqual(
        p2.data.map((o: any) => o.name),
        ['Org 2', 'Org 1'],
      );
      assert.deepEqual(p2.pagination, { page: 2, per_page: 2, total: 5, pages: 3, has_next: true, has_prev: true });
      const p3 = await page({ page: 3, per_page: 2 });
      assert.equal(p3.pagination.has_next, false);
      const past = await page({ page: 99, per_page: 2 });
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { page: 99, per_page: 2, total: 5, pages: 3, has_next: false, has_prev: true });
    });

    test('bad query values are 422 naming the field', async () => {
      const a = await createTestAccount(h);
      for (const [query, field] of [
        [{ page: 0 }, 'page'],
        [{ page: 'abc' }, 'page'],
        [{ page: 1.5 }, 'page'],
        [{ page: '99999999999999999999' }, 'page'],
        [{ per_page: 101 }, 'per_page'],
        [{ per_page: 0 }, 'per_page'],
        [{ per_page: -1 }, 'per_page'],
        [{ per_page: '1e2' }, 'per_page'],
        [{ per_page: '0x10' }, 'per_page'],
        [{ per_page: '+5' }, 'per_page'],
        [{ page: ' 1' }, 'page'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/orgs', { key: a.key, query: query as any }), 422, 'validation_error');
        assert.ok(body.fields[field], `${JSON.stringify(query)} names ${field}: ${JSON.stringify(body.fields)}`);
      }
      const ok = await call(h, 'GET', '/api/v1/orgs', { key: a.key, query: { unknown_param: 'x' } });
      assert.equal(ok.statusCode, 200, 'unknown query parameters are ignored');
    });

    test('another account never sees these orgs', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Secret Org', Date.now());
      const res = await call(h, 'GET', '/api/v1/orgs', { key: b.key, query: { q: 'secret' } });
      assert.equal(res.json().pagination.total, 0);
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/orgs', scope: 'orgs:read' });
      const readKey = await a.keyWith(['read']);
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: readKey })).statusCode, 200);
    });
  });
}
