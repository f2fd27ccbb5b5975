import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { insertContact, insertOrg } from '../helpers/support-fixtures.ts';

const T0 = Date.UTC(2026, 2, 1);

/** An org of the account, made at T0. */
const addOrg = (h: Harness, accountId: number, name = 'Org') => insertOrg(h, accountId, name, T0);

const ids = (res: { json: () => any }) => res.json().data.map((c: any) => c.id);

for (const engine of engines()) {
  // One app over one database per engine for the file's suites: each test makes its own account.
  let h: Harness;
  before(async () => {
    h = await createHarness(engine, { clock: new FixedClock(T0) });
  });
  after(() => h.close());

  describe(`GET /contacts [${engine}]`, () => {
    test('lists the account contacts newest first with every field', async () => {
      const a = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      const c1 = await insertContact(
        h,
        a.accountId,
        org,
        { name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '+44 1', title: 'CTO' },
        T0 + 1000,
        T0 + 5000,
      );
      const c2 = await insertContact(h, a.accountId, org, {}, T0 + 2000);
      const res = await call(h, 'GET', '/api/v1/contacts', { key: a.key });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.data, [
        {
          id: c2,
          org_id: org,
          name: null,
          email: null,
          phone: null,
          title: null,
          created_at: '2026-03-01T00:00:02.000Z',
          updated_at: '2026-03-01T00:00:02.000Z',
        },
        {
          id: c1,
          org_id: org,
          name: 'Ada Lovelace',
          email: 'Ada@Example.com',
          phone: '+44 1',
          title: 'CTO',
          created_at: '2026-03-01T00:00:01.000Z',
          updated_at: '2026-03-01T00:00:05.000Z',
        },
      ]);
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false });
    });

    test('org_id filter; an absent or foreign org is 404 org_not_found', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const o1 = await addOrg(h, a.accountId, 'One');
      const o2 = await addOrg(h, a.accountId, 'Two');
      const foreign = await addOrg(h, b.accountId, 'Foreign');
      const x = await insertContact(h, a.accountId, o1, { name: 'X' }, T0 + 1);
      await insertContact(h, a.accountId, o2, { name: 'Y' }, T0 + 2);
      await insertContact(h, b.accountId, foreign, { name: 'Z' }, T0 + 3);
      assert.deepEqual(ids(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: o1 } })), [x]);
      assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: foreign } }), 404, 'org_not_found');
      assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: 99999999 } }), 404, 'org_not_found');
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
        const body = assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: bad } }), 422, 'validation_error');
        assert.ok(body.fields.org_id, `org_id=${bad}`);
      }
    });

    test('email is an exact, case-insensitive match', async () => {
      const a = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      const m = await insertContact(h, a.accountId, org, { email: 'Mixed.Case@Example.COM' }, T0 + 1);
      await insertContact(h, a.accountId, org, { email: 'other.mixed.case@example.com' }, T0 + 2);
      const byEmail = async (email: string) => ids(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { email } }));
      assert.deepEqual(await byEmail('mixed.case@example.com'), [m]);
      assert.deepEqual(await byEmail('MIXED.CASE@EXAMPLE.COM'), [m]);
      assert.deepEqual(await byEmail('mixed.case@example'), []);
      assert.deepEqual(await byEmail('%@example.com'), []);
      const tooLong = assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { email: 'x'.repeat(400) } }), 422, 'validation_error');
      assert.equal(tooLong.fields.email, 'too_long');
    });

    test('q matches name or e-mail substrings, case-insensitively, metacharacters literally', async () => {
      const a = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      await insertContact(h, a.accountId, org, { name: 'Jürgen Groß' }, T0 + 1);
      await insertContact(h, a.accountId, org, { name: '100% Sure', email: 'sure@example.com' }, T0 + 2);
      await insertContact(h, a.accountId, org, { name: "O'Brien", email: 'o_brien@example.com' }, T0 + 3);
      await insertContact(h, a.accountId, org, { name: 'Back\\slash' }, T0 + 4);
      await insertContact(h, a.accountId, org, { email: 'only.email@Sample.org' }, T0 + 5);
      const names = async (q: string) =>
        (await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { q } })).json().data.map((c: any) => c.name ?? c.email);
      assert.deepEqual(await names('JÜRGEN'), ['Jürgen Groß']);
      assert.deepEqual(await names('groß'), ['Jürgen Groß']);
      assert.deepEqual(await names('%'), ['100% Sure']);
      assert.deepEqual(await names('_'), ["O'Brien"]);
      assert.deepEqual(await names("'"), ["O'Brien"]);
      assert.deepEqual(await names('\\'), ['Back\\slash']);
      assert.deepEqual(await names('SAMPLE.ORG'), ['only.email@Sample.org']);
      assert.deepEqual(await names('example.com'), ["O'Brien", '100% Sure']);
      assert.deepEqual(await names("x' or '1'='1"), []);
      const tooLong = assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { q: 'q'.repeat(201) } }), 422, 'validation_error');
      assert.equal(tooLong.fields.q, 'too_long');
    });

    test('filters combine', async () => {
      const a = await createTestAccount(h);
      const o1 = await addOrg(h, a.accountId);
      const o2 = await addOrg(h, a.accountId);
      const hit = await insertContact(h, a.accountId, o1, { name: 'Sam', email: 'sam@a.io' }, T0 + 1);
      await insertContact(h, a.accountId, o2, { name: 'Sam', email: 'sam@a.io' }, T0 + 2);
      await insertContact(h, a.accountId, o1, { name: 'Samantha', email: 'samantha@a.io' }, T0 + 3);
      assert.deepEqual(ids(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { org_id: o1, email: 'SAM@a.io', q: 'sam' } })), [hit]);
      const blank = await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { email: '', q: '' } });
      assert.equal(blank.json().pagination.total, 3, 'empty filter values filter nothing');
    });

    test('sort by created_at, updated_at and id in both directions, ties by id', async () => {
      const a = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      const p = await insertContact(h, a.accountId, org, { name: 'p' }, T0 + 10, T0 + 30);
      const q = await insertContact(h, a.accountId, org, { name: 'q' }, T0 + 20, T0 + 10);
      const r = await insertContact(h, a.accountId, org, { name: 'r' }, T0 + 10, T0 + 20);
      const sorted = async (sort: string, direction: string) => ids(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { sort, direction } }));
      assert.deepEqual(await sorted('created_at', 'desc'), [q, r, p]);
      assert.deepEqual(await sorted('created_at', 'asc'), [p, r, q]);
      assert.deepEqual(await sorted('updated_at', 'desc'), [p, r, q]);
      assert.deepEqual(await sorted('updated_at', 'asc'), [q, r, p]);
      assert.deepEqual(await sorted('id', 'asc'), [p, q, r]);
      assert.deepEqual(await sorted('id', 'desc'), [r, q, p]);
      for (const [query, field] of [
        [{ sort: 'name' }, 'sort'],
        [{ direction: 'sideways' }, 'direction'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query }), 422, 'validation_error');
        assert.equal(body.fields[field], 'invalid_enum');
      }
    });

    test('pagination and bad page values', async () => {
      const a = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await insertContact(h, a.accountId, org, { name: `c${i}` }, T0 + i));
      const p2 = (await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { page: 2, per_page: 2 } })).json();
      assert.deepEqual(
        p2.data.map((c: any) => c.id),
        [made[2], made[1]],
      );
      assert.deepEqual(p2.pagination, { page: 2, per_page: 2, total: 5, pages: 3, has_next: true, has_prev: true });
      const past = (await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { page: 4, per_page: 2 } })).json();
      assert.deepEqual(past.data, []);
      for (const [query, field] of [
        [{ page: 0 }, 'page'],
        [{ per_page: 101 }, 'per_page'],
        [{ per_page: 'x' }, 'per_page'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/contacts', { key: a.key, query }), 422, 'validation_error');
        assert.ok(body.fields[field]);
      }
    });

    test('another account never sees these contacts', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      await insertContact(h, a.accountId, org, { name: 'Hidden', email: 'hidden@example.com' }, T0);
      for (const query of [{}, { q: 'hidden' }, { email: 'hidden@example.com' }] as Record<string, string>[]) {
        assert.equal((await call(h, 'GET', '/api/v1/contacts', { key: b.key, query })).json().pagination.total, 0);
      }
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/contacts', scope: 'contacts:read' });
      assert.equal((await call(h, 'GET', '/api/v1/contacts', { key: await a.keyWith(['read']) })).statusCode, 200);
    });
  });

  describe(`GET /contacts/{id} [${engine}]`, () => {
    test('one contact; absent, malformed and foreign ids are refused', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await addOrg(h, a.accountId);
      const id = await insertContact(h, a.accountId, org, { name: 'Solo', email: 'solo@example.com' }, T0);
      const res = await call(h, 'GET', `/api/v1/contacts/${id}`, { key: a.key });
      assert.deepEqual(res.json(), {
        id,
        org_id: org,
        name: 'Solo',
        email: 'solo@example.com',
        phone: null,
        title: null,
        created_at: '2026-03-01T00:00:00.000Z',
        updated_at: '2026-03-01T00:00:00.000Z',
      });
      assertError(await call(h, 'GET', `/api/v1/contacts/${id}`, { key: b.key }), 404, 'contact_not_found');
      assertError(await call(h, 'GET', '/api/v1/contacts/424242', { key: a.key }), 404, 'contact_not_found');
      assert.equal(assertError(await call(h, 'GET', '/api/v1/contacts/0', { key: a.key }), 422, 'validation_error').fields.id, 'too_small');
      await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/contacts/${id}`, scope: 'contacts:read' });
    });
  });

  describe(`POST /contacts [${engine}]`, () => {
    let a: TestAccount;
    let org: number;
    before(async () => {
      a = await createTestAccount(h);
      org = await addOrg(h, a.accountId);
    });

    test('creates a contact: 201, Location, lower-cased search columns', async () => {
      const body = { org_id: org, name: 'Grace HOPPER', email: 'Grace@Navy.MIL', phone: '+1 555', title: 'Rear Admiral' };
      const res = await call(h, 'POST', '/api/v1/contacts', { key: a.key, body });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.deepEqual(created, { id: created.id, ...body, created_at: '2026-03-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z' });
      assert.equal(res.headers.location, `/api/v1/contacts/${created.id}`);
      const row = await h.db.selectFrom('contacts').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.equal(row.name_lc, 'grace hopper');
      assert.equal(row.email_lc, 'grace@navy.mil');
      assert.equal(Number(row.account_id), a.accountId);
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), created);
      const found = await call(h, 'GET', '/api/v1/contacts', { key: a.key, query: { email: 'grace@navy.mil' } });
      assert.deepEqual(ids(found), [created.id]);
    });

    test('optional fields may be left out or null', async () => {
      for (const body of [{ org_id: org }, { org_id: org, name: null, email: null, phone: null, title: null }]) {
        const res = await call(h, 'POST', '/api/v1/contacts', { key: a.key, body });
        assert.equal(res.statusCode, 201, res.body);
        const c = res.json();
        assert.deepEqual([c.name, c.email, c.phone, c.title], [null, null, null, null]);
        const row = await h.db.selectFrom('contacts').select(['name_lc', 'email_lc']).where('id', '=', c.id).executeTakeFirstOrThrow();
        assert.deepEqual({ ...row }, { name_lc: null, email_lc: null });
      }
    });

    test('an absent or foreign org is 404 org_not_found and nothing is written', async () => {
      const b = await createTestAccount(h);
      const foreign = await addOrg(h, b.accountId);
      const before = await tableCounts(h.db);
      assertError(await call(h, 'POST', '/api/v1/contacts', { key: a.key, body: { org_id: foreign, name: 'X' } }), 404, 'org_not_found');
      assertError(await call(h, 'POST', '/api/v1/contacts', { key: a.key, body: { org_id: 987654321, name: 'X' } }), 404, 'org_not_found');
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('needs the full-access scope', async () => {
      const body = { org_id: org, name: 'Scoped' };
      await assertCommonAuth(h, a, { method: 'POST', url: '/api/v1/contacts', scope: '*', body });
      for (const scopes of [['read'], ['contacts:read']] as const) {
        assertError(await call(h, 'POST', '/api/v1/contacts', { key: await a.keyWith([...scopes]), body }), 403, 'forbidden');
      }
    });

    test('bad bodies are 422 naming the field and change nothing', async () => {
      const valid = { org_id: org, name: 'Ok', email: 'ok@example.com' };
      const HUGE = 'x'.repeat(100 * 1024);
      let deep: unknown = 1;
      for (let i = 0; i < 64; i++) deep = [deep];
      const FIELDS = ['org_id', 'name', 'email', 'phone', 'title', 'idempotency_key'] as const;
      const cases = fc.oneof(
        fc.constant({ body: { name: 'No org' } as Record<string, unknown>, field: 'org_id' }),
        fc
          .record({
            field: fc.constantFrom(...FIELDS),
            value: fc.oneof(fc.integer({ min: 1 }), fc.boolean(), fc.constant(deep), fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 })),
          })
          .filter(({ field, value }) => !(field === 'org_id' && typeof value === 'number'))
          .map(({ field, value }) => ({ body: { ...valid, [field]: value }, field })),
        fc.constantFrom(null, '1', 0, -3, 1.5, 2 ** 60).map((v) => ({ body: { ...valid, org_id: v }, field: 'org_id' })),
        fc.constantFrom('name', 'email', 'phone', 'title', 'idempotency_key').map((f) => ({ body: { ...valid, [f]: '' }, field: f })),
        fc.constantFrom('name', 'email', 'phone', 'title').map((f) => ({ body: { ...valid, [f]: HUGE }, field: f })),
        fc.constantFrom('plain', 'a@', '@b.io', 'a b@c.io', 'a@@b.io', 'Ärger@bad').map((e) => ({ body: { ...valid, email: e }, field: 'email' })),
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((k) => !(FIELDS as readonly string[]).includes(k) && k !== '__proto__')
          .map((k) => ({ body: { ...valid, [k]: 'x' }, field: k })),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(cases, async ({ body, field }) => {
          const err = assertError(await call(h, 'POST', '/api/v1/contacts', { key: a.key, body }), 422, 'validation_error');
          assert.ok(err.fields[field], `${field} named in ${JSON.stringify(err.fields)}`);
        }),
        { numRuns: 50 },
      );
      for (const raw of ['[]', '"s"', 'null', '{', '7']) {
        assert.ok(assertError(await call(h, 'POST', '/api/v1/contacts', { key: a.key, body: raw }), 422, 'validation_error').fields.body, raw);
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });
  });
}
