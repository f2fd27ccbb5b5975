import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';

const T0 = Date.UTC(2026, 4, 1);
let tick = 0;

async function insertOrg(h: Harness, accountId: number): Promise<number> {
  const r = await h.db
    .insertInto('orgs')
    .values({ account_id: accountId, name: 'Org', name_lc: 'org', domain: null, created_at: T0, updated_at: T0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

async function insertContact(h: Harness, accountId: number): Promise<number> {
  const org = await insertOrg(h, accountId);
  const r = await h.db
    .insertInto('contacts')
    .values({
      account_id: accountId,
      org_id: org,
      name: 'C',
      name_lc: 'c',
      email: null,
      email_lc: null,
      phone: null,
      title: null,
      created_at: T0,
      updated_at: T0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Audiences with strictly increasing created_at, so "newest first" is the reverse of creation. */
async function insertAudience(h: Harness, accountId: number, name: string): Promise<{ id: number; name: string }> {
  const r = await h.db
    .insertInto('marketing_audiences')
    .values({ account_id: accountId, name, created_at: T0 + ++tick })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(r.id), name };
}

async function membershipIds(h: Harness, contactId: number): Promise<number[]> {
  const rows = await h.db.selectFrom('contact_audiences').select('audience_id').where('contact_id', '=', contactId).orderBy('audience_id').execute();
  return rows.map((r) => Number(r.audience_id));
}

const listOf = (data: { id: number; name: string }[]) => ({
  data,
  pagination: { page: 1, per_page: 100, total: data.length, pages: data.length ? 1 : 0, has_next: false, has_prev: false },
});

for (const engine of engines()) {
  // One app over one database per engine for the file's suites: each test makes its own account.
  let h: Harness;
  before(async () => {
    h = await createHarness(engine, { clock: new FixedClock(T0) });
  });
  after(() => h.close());

  describe(`marketing audiences [${engine}]`, () => {
    test('GET /marketing-audiences lists the account audiences newest first, paginated', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const x = await insertAudience(h, a.accountId, 'Newsletter');
      const y = await insertAudience(h, a.accountId, 'Beta testers');
      const z = await insertAudience(h, a.accountId, 'Événements');
      await insertAudience(h, b.accountId, 'Other account');
      const res = await call(h, 'GET', '/api/v1/marketing-audiences', { key: a.key });
      assert.deepEqual(res.json(), {
        data: [z, y, x],
        pagination: { page: 1, per_page: 25, total: 3, pages: 1, has_next: false, has_prev: false },
      });
      const p2 = (await call(h, 'GET', '/api/v1/marketing-audiences', { key: a.key, query: { page: 2, per_page: 2 } })).json();
      assert.deepEqual(p2, { data: [x], pagination: { page: 2, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true } });
      for (const [query, field] of [
        [{ page: 0 }, 'page'],
        [{ per_page: 500 }, 'per_page'],
      ] as const) {
        assert.ok(assertError(await call(h, 'GET', '/api/v1/marketing-audiences', { key: a.key, query }), 422, 'validation_error').fields[field]);
      }
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/marketing-audiences', scope: 'contacts:read' });
      assert.equal((await call(h, 'GET', '/api/v1/marketing-audiences', { key: await a.keyWith(['read']) })).statusCode, 200);
    });

    test('POST /marketing-audiences creates one; a duplicate name is 409 and changes nothing', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const res = await call(h, 'POST', '/api/v1/marketing-audiences', { key: a.key, body: { name: 'VIP' } });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.deepEqual(created, { id: created.id, name: 'VIP' });
      assert.equal(res.headers.location, `/api/v1/marketing-audiences/${created.id}`);
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), created);
      assertError(await call(h, 'GET', res.headers.location as string, { key: b.key }), 404, 'audience_not_found');
      const before = await tableCounts(h.db);
      assertError(await call(h, 'POST', '/api/v1/marketing-audiences', { key: a.key, body: { name: 'VIP' } }), 409, 'conflict');
      assert.deepEqual(await tableCounts(h.db), before);
      assert.equal((await call(h, 'POST', '/api/v1/marketing-audiences', { key: b.key, body: { name: 'VIP' } })).statusCode, 201);
    });

    test('POST /marketing-audiences needs full access', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'POST', url: '/api/v1/marketing-audiences', scope: '*', body: { name: 'Scoped' } });
      for (const scopes of [['read'], ['contacts:read']] as const) {
        const key = await a.keyWith([...scopes]);
        assertError(await call(h, 'POST', '/api/v1/marketing-audiences', { key, body: { name: 'Nope' } }), 403, 'forbidden');
      }
    });

    test('POST /marketing-audiences refuses bad bodies without writing', async () => {
      const a = await createTestAccount(h);
      let deep: unknown = 'x';
      for (let i = 0; i < 64; i++) deep = { d: deep };
      const cases = fc.oneof(
        fc.constant({ body: {} as Record<string, unknown>, field: 'name' }),
        fc.constantFrom(null, 1, true, '', 'x'.repeat(100 * 1024), deep, ['a'], { n: 'a' }).map((name) => ({ body: { name }, field: 'name' })),
        fc.constantFrom(null, 5, '', 'k'.repeat(300)).map((k) => ({ body: { name: 'ok', idempotency_key: k }, field: 'idempotency_key' })),
        fc
          .string({ minLength: 1, maxLength: 6 })
          .filter((k) => !['name', 'idempotency_key', '__proto__'].includes(k))
          .map((k) => ({ body: { name: 'ok', [k]: 1 }, field: k })),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(cases, async ({ body, field }) => {
          const err = assertError(await call(h, 'POST', '/api/v1/marketing-audiences', { key: a.key, body }), 422, 'validation_error');
          assert.ok(err.fields[field], `${field} named in ${JSON.stringify(err.fields)}`);
        }),
        { numRuns: 40 },
      );
      assert.deepEqual(await tableCounts(h.db), before);
    });
  });

  describe(`contact marketing memberships [${engine}]`, () => {
    let a: TestAccount;
    let b: TestAccount;
    before(async () => {
      a = await createTestAccount(h);
      b = await createTestAccount(h);
    });

    const url = (id: number) => `/api/v1/contacts/${id}/marketing-audiences`;

    test('PUT replaces the set, GET reads it, DELETE removes some or all', async () => {
      const contact = await insertContact(h, a.accountId);
      const [n1, n2, n3] = [
        await insertAudience(h, a.accountId, 'One'),
        await insertAudience(h, a.accountId, 'Two'),
        await insertAudience(h, a.accountId, 'Three'),
      ];
      const empty = await call(h, 'GET', url(contact), { key: a.key });
      assert.deepEqual(empty.json(), { data: [], pagination: { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false } });

      const put = await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [n1.id, n2.id, n1.id] } });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), listOf([n2, n1]));
      assert.deepEqual(await membershipIds(h, contact), [n1.id, n2.id]);
      const got = await call(h, 'GET', url(contact), { key: a.key });
      assert.deepEqual(got.json().data, [n2, n1]);
      assert.equal(got.json().pagination.total, 2);

      const replaced = await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [n3.id, n2.id] } });
      assert.deepEqual(replaced.json(), listOf([n3, n2]));
      assert.deepEqual(await membershipIds(h, contact), [n2.id, n3.id]);

      const removed = await call(h, 'DELETE', url(contact), { key: a.key, body: { audience_ids: [n3.id, n1.id] } });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json(), listOf([n2]));

      await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [n1.id, n2.id, n3.id] } });
      const all = await call(h, 'DELETE', url(contact), { key: a.key });
      assert.equal(all.statusCode, 200, all.body);
      assert.deepEqual(all.json(), listOf([]));
      assert.deepEqual(await membershipIds(h, contact), []);

      await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [n1.id] } });
      const cleared = await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [] } });
      assert.deepEqual(cleared.json(), listOf([]));
    });

    test('DELETE without a body works with or without a JSON content type, and with an empty object', async () => {
      const contact = await insertContact(h, a.accountId);
      const x = await insertAudience(h, a.accountId, `x-${tick}`);
      for (const send of [
        () => h.app.inject({ method: 'DELETE', url: url(contact), headers: { authorization: `Bearer ${a.key}` } }),
        () => h.app.inject({ method: 'DELETE', url: url(contact), headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' } }),
        () => call(h, 'DELETE', url(contact), { key: a.key, body: {} }),
      ]) {
        await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [x.id] } });
        const res = await send();
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), listOf([]));
        assert.deepEqual(await membershipIds(h, contact), []);
      }
    });

    test('memberships are paginated on GET', async () => {
      const contact = await insertContact(h, a.accountId);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await insertAudience(h, a.accountId, `page-${i}-${tick}`));
      await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: made.map((m) => m.id) } });
      const p2 = (await call(h, 'GET', url(contact), { key: a.key, query: { page: 2, per_page: 2 } })).json();
      assert.deepEqual(p2, { data: [made[0]], pagination: { page: 2, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true } });
    });

    test("another account's contact is 404 contact_not_found on every method", async () => {
      const foreign = await insertContact(h, b.accountId);
      const mine = await insertAudience(h, a.accountId, `mine-${tick}`);
      const before = await tableCounts(h.db);
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { audience_ids: [mine.id] }],
        ['DELETE', { audience_ids: [mine.id] }],
        ['DELETE', undefined],
      ] as const) {
        assertError(await call(h, method, url(foreign), { key: a.key, body }), 404, 'contact_not_found');
        assertError(await call(h, method, url(987654321), { key: a.key, body }), 404, 'contact_not_found');
      }
      assert.deepEqual(await tableCounts(h.db), before);
      assert.ok(assertError(await call(h, 'GET', url(0), { key: a.key }), 422, 'validation_error').fields.id);
    });

    test('audience ids of another account (or absent) are 404 audience_not_found and nothing changes', async () => {
      const contact = await insertContact(h, a.accountId);
      const own = await insertAudience(h, a.accountId, `own-${tick}`);
      const kept = await insertAudience(h, a.accountId, `kept-${tick}`);
      const theirs = await insertAudience(h, b.accountId, `theirs-${tick}`);
      await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [kept.id] } });
      const before = await tableCounts(h.db);
      for (const ids of [[own.id, theirs.id], [theirs.id], [own.id, 99999999]]) {
        assertError(await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: ids } }), 404, 'audience_not_found');
        assertError(await call(h, 'DELETE', url(contact), { key: a.key, body: { audience_ids: [kept.id, ...ids] } }), 404, 'audience_not_found');
      }
      assert.deepEqual(await membershipIds(h, contact), [kept.id]);
      assert.deepEqual(await tableCounts(h.db), before);
      // The other account cannot attach its contact to our audience either.
      const theirContact = await insertContact(h, b.accountId);
      assertError(await call(h, 'PUT', url(theirContact), { key: b.key, body: { audience_ids: [own.id] } }), 404, 'audience_not_found');
      assert.deepEqual(await membershipIds(h, theirContact), []);
    });

    test('scopes: a read key can GET; PUT and DELETE need full access', async () => {
      const contact = await insertContact(h, a.accountId);
      const aud = await insertAudience(h, a.accountId, `scope-${tick}`);
      const readKey = await a.keyWith(['read']);
      const contactsKey = await a.keyWith(['contacts:read']);
      assert.equal((await call(h, 'GET', url(contact), { key: readKey })).statusCode, 200);
      assert.equal((await call(h, 'GET', url(contact), { key: contactsKey })).statusCode, 200);
      for (const key of [readKey, contactsKey]) {
        for (const [method, body] of [
          ['PUT', { audience_ids: [aud.id] }],
          ['DELETE', { audience_ids: [aud.id] }],
          ['DELETE', undefined],
        ] as const) {
          const err = assertError(await call(h, method, url(contact), { key, body }), 403, 'forbidden');
          assert.deepEqual(err.required_scopes, ['*']);
        }
      }
      assert.deepEqual(await membershipIds(h, contact), []);
      await assertCommonAuth(h, a, { method: 'GET', url: url(contact), scope: 'contacts:read' });
      await assertCommonAuth(h, a, { method: 'PUT', url: url(contact), scope: '*', body: { audience_ids: [aud.id] } });
      await assertCommonAuth(h, a, { method: 'DELETE', url: url(contact), scope: '*', body: { audience_ids: [aud.id] } });
      await assertCommonAuth(h, a, { method: 'DELETE', url: url(contact), scope: '*' });
    });

    test('concurrent PUTs on one contact all succeed and leave exactly one of the requested sets', async () => {
      const contact = await insertContact(h, a.accountId);
      const pool = [];
      for (let i = 0; i < 4; i++) pool.push(await insertAudience(h, a.accountId, `race-${i}-${tick}`));
      const sets = [[pool[0].id, pool[1].id], [pool[1].id, pool[2].id], [pool[3].id], [pool[0].id, pool[2].id, pool[3].id], []];
      const answers = await Promise.all(sets.map((audience_ids) => call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids } })));
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        sets.map(() => 200),
      );
      const final = await membershipIds(h, contact);
      assert.ok(
        sets.some((s) => JSON.stringify([...s].sort((x, y) => x - y)) === JSON.stringify(final)),
        `final set ${final} is one of the requests`,
      );
    });

    test('an idempotent PUT replay answers the first result', async () => {
      const contact = await insertContact(h, a.accountId);
      const aud = await insertAudience(h, a.accountId, `idem-${tick}`);
      const body = { audience_ids: [aud.id], idempotency_key: `put-${contact}` };
      const first = await call(h, 'PUT', url(contact), { key: a.key, body });
      const again = await call(h, 'PUT', url(contact), { key: a.key, body });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
    });

    test('bad PUT and DELETE bodies are 422 naming the field and change nothing', async () => {
      const contact = await insertContact(h, a.accountId);
      const aud = await insertAudience(h, a.accountId, `bad-${tick}`);
      await call(h, 'PUT', url(contact), { key: a.key, body: { audience_ids: [aud.id] } });
      let deep: unknown = 1;
      for (let i = 0; i < 64; i++) deep = { d: [deep] };
      const badIds = fc.oneof(
        fc.constantFrom<unknown>(null, 'all', 7, true, {}, deep, '1,2').map((v) => ({ value: v, field: 'audience_ids' })),
        fc.constantFrom<unknown>(0, -1, 1.5, '3', null, 2 ** 60, [1]).map((v) => ({ value: [aud.id, v], field: 'audience_ids.1' })),
        fc.constant({ value: Array.from({ length: 101 }, (_, i) => i + 1) as unknown, field: 'audience_ids' }),
      );
      const cases = fc.oneof(
        badIds.map(({ value, field }) => ({ body: { audience_ids: value } as Record<string, unknown>, field })),
        fc
          .string({ minLength: 1, maxLength: 6 })
          .filter((k) => !['audience_ids', 'idempotency_key', '__proto__'].includes(k))
          .map((k) => ({ body: { audience_ids: [aud.id], [k]: 1 } as Record<string, unknown>, field: k })),
        fc
          .constantFrom<unknown>('', 1, null, 'x'.repeat(100 * 1024))
          .map((k) => ({ body: { audience_ids: [], idempotency_key: k }, field: 'idempotency_key' })),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(cases, fc.constantFrom('PUT', 'DELETE'), async ({ body, field }, method) => {
          const err = assertError(await call(h, method as 'PUT', url(contact), { key: a.key, body }), 422, 'validation_error');
          assert.ok(err.fields[field], `${method} ${field} named in ${JSON.stringify(err.fields)}`);
        }),
        { numRuns: 50 },
      );
      const missing = assertError(await call(h, 'PUT', url(contact), { key: a.key, body: {} }), 422, 'validation_error');
      assert.equal(missing.fields.audience_ids, 'required');
      for (const raw of ['[]', 'null', '{"audience_ids": [', '"x"']) {
        for (const method of ['PUT', 'DELETE'] as const) {
          const err = assertError(await call(h, method, url(contact), { key: a.key, body: raw }), 422, 'validation_error');
          assert.ok(err.fields.body, `${method} ${raw}: ${JSON.stringify(err.fields)}`);
        }
      }
      assert.deepEqual(await membershipIds(h, contact), [aud.id]);
      assert.deepEqual(await tableCounts(h.db), before);
    });
  });
}
