import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { verifyPassword } from '../../src/lib/crypto.ts';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { userRow } from '../helpers/user-row.ts';

const T0 = Date.UTC(2026, 0, 1);

async function insertUser(
  h: Harness,
  accountId: number,
  email: string,
  at: number,
  extra: { is_active?: boolean; role?: 'owner' | 'admin' | 'member'; support_enabled?: boolean } = {},
): Promise<number> {
  const { role, is_active: isActive, support_enabled: supportEnabled } = extra;
  const r = await h.db
    .insertInto('users')
    .values(userRow({ accountId, email, displayName: email.split('@')[0], at, role, isActive, supportEnabled, passwordHash: 'scrypt$secret-hash-never-shown' }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

const ids = (res: { json: () => any }) => res.json().data.map((u: any) => u.id);

for (const engine of engines()) {
  // One app over one database per engine for the file's suites: each test makes its own account.
  let h: Harness;
  before(async () => {
    h = await createHarness(engine, { clock: new FixedClock(T0) });
  });
  after(() => h.close());

  describe(`GET /users [${engine}]`, () => {
    test('lists the team newest first, without secrets', async () => {
      const a = await createTestAccount(h);
      const ann = await insertUser(h, a.accountId, 'Ann@Example.com', T0 + 1000, { role: 'admin', support_enabled: true });
      const bob = await insertUser(h, a.accountId, 'bob@example.com', T0 + 2000, { is_active: false });
      const res = await call(h, 'GET', '/api/v1/users', { key: a.key });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(
        body.data.map((u: any) => u.id),
        [bob, ann, a.ownerId],
      );
      assert.deepEqual(body.data[0], {
        id: bob,
        email: 'bob@example.com',
        display_name: 'bob',
        role: 'member',
        is_active: false,
        support_enabled: false,
        created_at: '2026-01-01T00:00:02.000Z',
      });
      assert.deepEqual(body.data[1], {
        id: ann,
        email: 'Ann@Example.com',
        display_name: 'Ann',
        role: 'admin',
        is_active: true,
        support_enabled: true,
        created_at: '2026-01-01T00:00:01.000Z',
      });
      assert.equal(body.data[2].role, 'owner');
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 3, pages: 1, has_next: false, has_prev: false });
      assert.ok(!res.body.includes('password') && !res.body.includes('scrypt'), 'no password material in the answer');
    });

    test('active_only accepts 1/true/0/false and refuses anything else', async () => {
      const a = await createTestAccount(h);
      const on = await insertUser(h, a.accountId, 'on@example.com', T0 + 1);
      const off = await insertUser(h, a.accountId, 'off@example.com', T0 + 2, { is_active: false });
      const list = (active_only: string) => call(h, 'GET', '/api/v1/users', { key: a.key, query: { active_only } });
      assert.deepEqual(ids(await list('1')), [on, a.ownerId]);
      assert.deepEqual(ids(await list('true')), [on, a.ownerId]);
      assert.deepEqual(ids(await list('0')), [off, on, a.ownerId]);
      assert.deepEqual(ids(await list('false')), [off, on, a.ownerId]);
      assert.equal((await list('1')).json().pagination.total, 2);
      for (const bad of ['2', 'yes', 'TRUE', '', '1; drop table users', 'ü']) {
        const body = assertError(await list(bad), 422, 'validation_error');
        assert.equal(body.fields.active_only, 'invalid_enum', `active_only=${bad}`);
      }
    });

    test('sort by created_at and id in both directions, ties by id', async () => {
      const a = await createTestAccount(h);
      const x = await insertUser(h, a.accountId, 'x@example.com', T0 + 5000);
      const y = await insertUser(h, a.accountId, 'y@example.com', T0 + 5000);
      const z = await insertUser(h, a.accountId, 'z@example.com', T0 + 1000);
      const owner = a.ownerId;
      const sorted = async (sort: string, direction?: string) =>
        ids(await call(h, 'GET', '/api/v1/users', { key: a.key, query: direction ? { sort, direction } : { sort } }));
      assert.deepEqual(await sorted('created_at', 'desc'), [y, x, z, owner]);
      assert.deepEqual(await sorted('created_at', 'asc'), [owner, z, x, y]);
      assert.deepEqual(await sorted('created_at'), [y, x, z, owner]);
      assert.deepEqual(await sorted('id', 'asc'), [owner, x, y, z]);
      assert.deepEqual(await sorted('id', 'desc'), [z, y, x, owner]);
    });

    test('pagination arithmetic and a page past the end', async () => {
      const a = await createTestAccount(h);
      const made = [];
      for (let i = 1; i <= 4; i++) made.push(await insertUser(h, a.accountId, `u${i}@example.com`, T0 + i * 1000));
      const page = async (query: Record<string, number>) => (await call(h, 'GET', '/api/v1/users', { key: a.key, query })).json();
      const p2 = await page({ page: 2, per_page: 2 });
      assert.deepEqual(
        p2.data.map((u: any) => u.id),
        [made[1], made[0]],
      );
      assert.deepEqual(p2.pagination, { page: 2, per_page: 2, total: 5, pages: 3, has_next: true, has_prev: true });
      const past = await page({ page: 9, per_page: 2 });
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { page: 9, per_page: 2, total: 5, pages: 3, has_next: false, has_prev: true });
    });

    test('bad query values are 422 naming the field; unknown parameters are ignored', async () => {
      const a = await createTestAccount(h);
      for (const [query, field, reason] of [
        [{ page: 0 }, 'page', 'too_small'],
        [{ page: 'abc' }, 'page', 'invalid_type'],
        [{ per_page: 101 }, 'per_page', 'too_large'],
        [{ per_page: 0 }, 'per_page', 'too_small'],
        [{ sort: 'email' }, 'sort', 'invalid_enum'],
        [{ sort: "created_at'--" }, 'sort', 'invalid_enum'],
        [{ direction: 'up' }, 'direction', 'invalid_enum'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/users', { key: a.key, query: query as any }), 422, 'validation_error');
        assert.equal(body.fields[field], reason, JSON.stringify(query));
      }
      assert.equal((await call(h, 'GET', '/api/v1/users', { key: a.key, query: { role: 'x' } })).statusCode, 200);
    });

    test('another account never sees these users', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      await insertUser(h, a.accountId, 'secret@example.com', T0);
      const res = await call(h, 'GET', '/api/v1/users', { key: b.key });
      assert.deepEqual(ids(res), [b.ownerId]);
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/users', scope: 'users:read' });
      assert.equal((await call(h, 'GET', '/api/v1/users', { key: await a.keyWith(['read']) })).statusCode, 200);
      assert.equal((await call(h, 'GET', '/api/v1/users', { key: await a.keyWith(['users:read']) })).statusCode, 200);
    });
  });

  describe(`GET /users/{id} [${engine}]`, () => {
    test('one user; absent, malformed and another account ids', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const id = await insertUser(h, a.accountId, 'one@example.com', T0 + 7, { role: 'admin' });
      const res = await call(h, 'GET', `/api/v1/users/${id}`, { key: a.key });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        id,
        email: 'one@example.com',
        display_name: 'one',
        role: 'admin',
        is_active: true,
        support_enabled: false,
        created_at: '2026-01-01T00:00:00.007Z',
      });
      assertError(await call(h, 'GET', `/api/v1/users/${id}`, { key: b.key }), 404, 'user_not_found');
      assertError(await call(h, 'GET', '/api/v1/users/999999', { key: a.key }), 404, 'user_not_found');
      const bad = assertError(await call(h, 'GET', '/api/v1/users/abc', { key: a.key }), 422, 'validation_error');
      assert.equal(bad.fields.id, 'invalid_type');
      await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/users/${id}`, scope: 'users:read' });
    });
  });

  describe(`POST /users [${engine}]`, () => {
    let a: TestAccount;
    before(async () => {
      a = await createTestAccount(h);
    });

    test('creates a user with defaults: 201, Location, no password in the answer', async () => {
      const res = await call(h, 'POST', '/api/v1/users', { key: a.key, body: { email: 'New.User@Example.com', display_name: 'New User' } });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.deepEqual(body, {
        id: body.id,
        email: 'New.User@Example.com',
        display_name: 'New User',
        role: 'member',
        is_active: true,
        support_enabled: false,
        created_at: '2026-01-01T00:00:00.000Z',
      });
      assert.equal(res.headers.location, `/api/v1/users/${body.id}`);
      const row = await h.db.selectFrom('users').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.equal(row.email_lc, 'new.user@example.com');
      assert.equal(Number(row.account_id), a.accountId);
      assert.equal(row.password_hash, null);
      const got = await call(h, 'GET', res.headers.location as string, { key: a.key });
      assert.deepEqual(got.json(), body);
    });

    test('stores the password as a verifiable hash and never returns it', async () => {
      const body = { email: 'pw@example.com', display_name: 'Pw', role: 'admin', is_active: false, support_enabled: true, password: 'correct horse battery' };
      const res = await call(h, 'POST', '/api/v1/users', { key: a.key, body });
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(!res.body.includes('password') && !res.body.includes('correct horse'));
      const created = res.json();
      assert.equal(created.role, 'admin');
      assert.equal(created.is_active, false);
      assert.equal(created.support_enabled, true);
      const row = await h.db.selectFrom('users').select('password_hash').where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.match(row.password_hash!, /^scrypt\$/);
      assert.equal(await verifyPassword('correct horse battery', row.password_hash!), true);
      assert.equal(await verifyPassword('wrong', row.password_hash!), false);
    });

    test('a duplicate e-mail in the account (any case) is 409 and changes nothing; another account may reuse it', async () => {
      await call(h, 'POST', '/api/v1/users', { key: a.key, body: { email: 'dup@example.com', display_name: 'One' } });
      const before = await tableCounts(h.db);
      assertError(await call(h, 'POST', '/api/v1/users', { key: a.key, body: { email: 'DUP@example.com', display_name: 'Two' } }), 409, 'conflict');
      assert.deepEqual(await tableCounts(h.db), before);
      const b = await createTestAccount(h);
      assert.equal((await call(h, 'POST', '/api/v1/users', { key: b.key, body: { email: 'dup@example.com', display_name: 'B' } })).statusCode, 201);
    });

    test('an idempotent replay creates nothing new', async () => {
      const body = { email: 'idem@example.com', display_name: 'Idem', idempotency_key: 'user-idem-1' };
      const first = await call(h, 'POST', '/api/v1/users', { key: a.key, body });
      const again = await call(h, 'POST', '/api/v1/users', { key: a.key, body });
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
      const rows = await h.db.selectFrom('users').select('id').where('email_lc', '=', 'idem@example.com').execute();
      assert.equal(rows.length, 1);
    });

    test('needs the full-access scope', async () => {
      const body = { email: 'scope@example.com', display_name: 'Scope' };
      await assertCommonAuth(h, a, { method: 'POST', url: '/api/v1/users', scope: '*', body });
      for (const scopes of [['read'], ['users:read']] as const) {
        const res = assertError(await call(h, 'POST', '/api/v1/users', { key: await a.keyWith([...scopes]), body }), 403, 'forbidden');
        assert.deepEqual(res.required_scopes, ['*']);
      }
    });

    test('bad bodies are 422 naming the field and change nothing', async () => {
      const valid = { email: 'ok@example.com', display_name: 'Ok' };
      const HUGE = 'x'.repeat(100 * 1024);
      let deep: unknown = 1;
      for (let i = 0; i < 64; i++) deep = { n: deep };
      const cases = fc.oneof(
        fc.constantFrom('email', 'display_name').map((f) => ({ body: { ...valid, [f]: undefined }, field: f })),
        fc
          .record({
            field: fc.constantFrom('email', 'display_name', 'role', 'is_active', 'support_enabled', 'password', 'idempotency_key'),
            value: fc.oneof(fc.constant(null), fc.integer(), fc.constant(deep), fc.array(fc.string(), { maxLength: 2 }), fc.constant({})),
          })
          .map(({ field, value }) => ({ body: { ...valid, [field]: value }, field })),
        fc.constantFrom('is_active', 'support_enabled').map((f) => ({ body: { ...valid, [f]: 'true' }, field: f })),
        fc.constantFrom('email', 'display_name').map((f) => ({ body: { ...valid, [f]: '' }, field: f })),
        fc.constantFrom('email', 'display_name', 'password').map((f) => ({ body: { ...valid, [f]: HUGE }, field: f })),
        fc.constantFrom('not-an-email', 'a@', '@b.io', 'a b@c.io', 'a@b@c.io', 'ü@ü').map((e) => ({ body: { ...valid, email: e }, field: 'email' })),
        fc.constantFrom('king', 'OWNER', '').map((r) => ({ body: { ...valid, role: r }, field: 'role' })),
        fc.constantFrom('short', '1234567').map((p) => ({ body: { ...valid, password: p }, field: 'password' })),
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((k) => !['email', 'display_name', 'role', 'is_active', 'support_enabled', 'password', 'idempotency_key', '__proto__'].includes(k))
          .map((k) => ({ body: { ...valid, [k]: 1 }, field: k })),
      );
      const before = await tableCounts(h.db);
      await fc.assert(
        fc.asyncProperty(cases, async ({ body, field }) => {
          const res = await call(h, 'POST', '/api/v1/users', { key: a.key, body });
          const err = assertError(res, 422, 'validation_error');
          assert.ok(err.fields[field], `${field} named in ${JSON.stringify(err.fields)}`);
        }),
        { numRuns: 50 },
      );
      for (const raw of ['[]', '"text"', '42', 'null', '{"email":', '[[[[[[[[[[]]]]]]]]]]']) {
        const err = assertError(await call(h, 'POST', '/api/v1/users', { key: a.key, body: raw }), 422, 'validation_error');
        assert.ok(err.fields.body, raw);
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });
  });
}
