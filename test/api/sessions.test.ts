import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { signIn as signInService } from '../../src/modules/sessions/sessions.service.ts';
import { addUser, asUser, signIn, TEST_PASSWORD } from '../helpers/sessions.ts';

const HOUR = 3600_000;

for (const engine of engines()) {
  describe(`console sessions [${engine}]`, () => {
    let h: Harness;
    let clock: FixedClock;
    let acct: TestAccount;
    let owner: { id: number; email: string };
    before(async () => {
      clock = new FixedClock(Date.now());
      h = await createHarness(engine, { clock, env: { CUSTOPS_CONSOLE_RATE_LIMIT_PER_MINUTE: '100000' } });
      acct = await createTestAccount(h);
      owner = await addUser(h, acct.accountId, 'admin');
    });
    after(() => h.close());

    test('a password hashed at another cost is hashed again at the configured one by the next sign-in, the user otherwise unchanged', async () => {
      const user = await addUser(h, acct.accountId, 'member');
      const before = await h.db.selectFrom('users').select(['password_hash', 'updated_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
      assert.match(before.password_hash!, /^scrypt\$1024\$/, "made at the tests' cost, 2^10");
      // The same service the route calls, with CUSTOPS_PASSWORD_COST raised to 11.
      const raised = { db: h.db, clock, config: { passwordCost: 11 } };
      await signInService(raised, { email: user.email, password: TEST_PASSWORD });
      const after = await h.db.selectFrom('users').select(['password_hash', 'updated_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
      assert.match(after.password_hash!, /^scrypt\$2048\$8\$1\$/);
      assert.equal(Number(after.updated_at), Number(before.updated_at), 'a new hash of the same password is not a change of the user');
      await signInService(raised, { email: user.email, password: TEST_PASSWORD });
      const again = await h.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      assert.equal(again.password_hash, after.password_hash, 'at the configured cost already: left as it is');
      await assert.rejects(signInService(raised, { email: user.email, password: 'not-the-password' }), /Invalid email or password/);
    });

    test('sign-in sets an HttpOnly, SameSite=Lax session cookie (not Secure over plain HTTP) and answers the session', async () => {
      const res = await call(h, 'POST', '/api/v1/session', { body: { email: owner.email.toUpperCase(), password: TEST_PASSWORD } });
      assert.equal(res.statusCode, 201);
      const cookie = String(res.headers['set-cookie']);
      assert.match(cookie, /^custops_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
      const body = res.json();
      assert.equal(body.user.email, owner.email);
      assert.equal(body.user.role, 'admin');
      assert.equal(body.account_id, acct.accountId);
      assert.equal(typeof body.csrf_token, 'string');
      assert.equal(body.expires_at, new Date(clock.now() + 7 * 24 * HOUR).toISOString());
      assert.equal(body.idle_expires_at, new Date(clock.now() + 12 * HOUR).toISOString());
      assert.equal(res.headers['cache-control'], 'no-store');
      // The token is stored hashed only.
      const token = /custops_session=([^;]+)/.exec(cookie)![1];
      const rows = await h.db.selectFrom('console_sessions').select('token_hash').execute();
      assert.ok(rows.length > 0 && rows.every((r) => r.token_hash !== token && /^[0-9a-f]{64}$/.test(r.token_hash)));
    });

    test('an unknown email and a wrong password get the same answer', async () => {
      const wrong = await call(h, 'POST', '/api/v1/session', { body: { email: owner.email, password: 'nope-nope' } });
      const unknown = await call(h, 'POST', '/api/v1/session', { body: { email: 'nobody-here@example.com', password: 'nope-nope' } });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, 401);
      assert.equal(wrong.json().message, 'Invalid email or password.');
      assert.equal(unknown.json().message, wrong.json().message);
      assert.equal(wrong.json().error, 'unauthorized');
      assert.equal(wrong.headers['set-cookie'], undefined);
    });

    test('bad sign-in bodies are 422 naming the field, and create no session', async () => {
      const before = await h.db
        .selectFrom('console_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const missing = await call(h, 'POST', '/api/v1/session', { body: { email: owner.email } });
      assert.equal(missing.statusCode, 422);
      assert.equal(missing.json().fields.password, 'required');
      const extra = await call(h, 'POST', '/api/v1/session', { body: { email: owner.email, password: TEST_PASSWORD, admin: true } });
      assert.equal(extra.statusCode, 422);
      const notJson = await call(h, 'POST', '/api/v1/session', { body: '{"email":', headers: { 'content-type': 'application/json' } });
      assert.equal(notJson.statusCode, 422);
      assert.equal(notJson.json().fields.body, 'invalid_json');
      const form = await call(h, 'POST', '/api/v1/session', {
        body: `email=${owner.email}&password=x`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(form.statusCode, 415);
      const after = await h.db
        .selectFrom('console_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
    });

    test('5 failures for one email in 15 minutes refuse it for 15 minutes, whatever the password; unknown emails too', async () => {
      const user = await addUser(h, acct.accountId, 'member');
      for (let i = 0; i < 5; i++) {
        clock.advance(60_000);
        const r = await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: `wrong-${i}` } });
        assert.equal(r.statusCode, 401);
      }
      const locked = await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: TEST_PASSWORD } });
      assert.equal(locked.statusCode, 429);
      assert.equal(locked.json().error, 'rate_limited');
      assert.equal(locked.headers['retry-after'], String(15 * 60));
      // Another email is not affected.
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: owner.email, password: TEST_PASSWORD } })).statusCode, 201);
      clock.advance(14 * 60_000);
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: TEST_PASSWORD } })).statusCode, 429);
      clock.advance(60_000);
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: TEST_PASSWORD } })).statusCode, 201);

      for (let i = 0; i < 5; i++) await call(h, 'POST', '/api/v1/session', { body: { email: 'ghost@example.com', password: 'x' } });
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: 'ghost@example.com', password: 'x' } })).statusCode, 429);
    });

    test('GET /session answers the signed-in user; sign-out ends the session at once', async () => {
      const login = await signIn(h, owner.email);
      const me = await asUser(h, login, 'GET', '/api/v1/session');
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().user.id, owner.id);
      assert.equal(me.json().csrf_token, login.csrf);
      const out = await asUser(h, login, 'DELETE', '/api/v1/session');
      assert.equal(out.statusCode, 204);
      assert.match(String(out.headers['set-cookie']), /custops_session=;.*Expires=Thu, 01 Jan 1970/);
      const after = await asUser(h, login, 'GET', '/api/v1/orgs');
      assert.equal(after.statusCode, 401);
      assert.equal((await call(h, 'GET', '/api/v1/session')).statusCode, 401);
    });

    test('a cookie-authenticated write needs the session CSRF token: missing or wrong is 403 with nothing written', async () => {
      const login = await signIn(h, owner.email);
      const counts = await tableCounts(h.db);
      const none = await asUser(h, login, 'POST', '/api/v1/orgs', { body: { name: 'Forged Org' }, csrf: null });
      assert.equal(none.statusCode, 403);
      assert.equal(none.json().error, 'forbidden');
      const wrong = await asUser(h, login, 'POST', '/api/v1/orgs', { body: { name: 'Forged Org' }, csrf: login.csrf.slice(0, -2) + 'xx' });
      assert.equal(wrong.statusCode, 403);
      const other = await signIn(h, owner.email);
      const crossed = await asUser(h, login, 'POST', '/api/v1/orgs', { body: { name: 'Forged Org' }, csrf: other.csrf });
      assert.equal(crossed.statusCode, 403);
      const del = await asUser(h, login, 'DELETE', '/api/v1/session', { csrf: null });
      assert.equal(del.statusCode, 403);
      assert.deepEqual(await tableCounts(h.db), counts);
      // Reads need no token; a write with it works and is attributed to nothing else than the account.
      assert.equal((await asUser(h, login, 'GET', '/api/v1/orgs')).statusCode, 200);
      const ok = await asUser(h, login, 'POST', '/api/v1/orgs', { body: { name: 'Real Org' } });
      assert.equal(ok.statusCode, 201);
    });

    test('with Authorization the key alone decides (cookie ignored); session routes refuse API keys', async () => {
      const login = await signIn(h, owner.email);
      const badKey = await call(h, 'GET', '/api/v1/orgs', { headers: { cookie: login.cookie, authorization: 'Bearer cok_invalid' } });
      assert.equal(badKey.statusCode, 401);
      const readKey = await acct.keyWith(['deals:read']);
      const scoped = await call(h, 'GET', '/api/v1/orgs', { key: readKey, headers: { cookie: login.cookie } });
      assert.equal(scoped.statusCode, 403);
      for (const [method, url, body] of [
        ['GET', '/api/v1/session', undefined],
        ['DELETE', '/api/v1/session', undefined],
        ['POST', '/api/v1/session', { email: owner.email, password: TEST_PASSWORD }],
        ['POST', '/api/v1/session/password', { current_password: TEST_PASSWORD, new_password: 'another-password' }],
      ] as const) {
        const r = await call(h, method, url, { key: acct.key, body });
        assert.equal(r.statusCode, 403, `${method} ${url}`);
        assert.equal(r.json().error, 'forbidden');
      }
      // The session still works: the key's calls changed nothing.
      assert.equal((await asUser(h, login, 'GET', '/api/v1/session')).statusCode, 200);
    });

    test('12 hours idle end a session; activity keeps it until the 7-day absolute end', async () => {
      const idle = await signIn(h, owner.email);
      const active = await signIn(h, owner.email);
      clock.advance(11 * HOUR);
      assert.equal((await asUser(h, active, 'GET', '/api/v1/session')).statusCode, 200);
      clock.advance(1 * HOUR + 1000);
      assert.equal((await asUser(h, idle, 'GET', '/api/v1/orgs')).statusCode, 401);
      assert.equal((await asUser(h, active, 'GET', '/api/v1/orgs')).statusCode, 200);
      for (let elapsed = 12 * HOUR; elapsed < 7 * 24 * HOUR - 11 * HOUR; elapsed += 11 * HOUR) {
        clock.advance(11 * HOUR);
        assert.equal((await asUser(h, active, 'GET', '/api/v1/orgs')).statusCode, 200);
      }
      clock.advance(11 * HOUR);
      const expired = await asUser(h, active, 'GET', '/api/v1/orgs');
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.json().error, 'unauthorized');
    });

    test('a password change ends every session of the user; the new password signs in', async () => {
      const user = await addUser(h, acct.accountId, 'member');
      const a = await signIn(h, user.email);
      const b = await signIn(h, user.email);
      const wrong = await asUser(h, a, 'POST', '/api/v1/session/password', { body: { current_password: 'not-it', new_password: 'brand-new-password' } });
      assert.equal(wrong.statusCode, 422);
      assert.equal(wrong.json().fields.current_password, 'incorrect');
      const short = await asUser(h, a, 'POST', '/api/v1/session/password', { body: { current_password: TEST_PASSWORD, new_password: 'short' } });
      assert.equal(short.statusCode, 422);
      assert.equal(short.json().fields.new_password, 'too_short');
      const ok = await asUser(h, a, 'POST', '/api/v1/session/password', { body: { current_password: TEST_PASSWORD, new_password: 'brand-new-password' } });
      assert.equal(ok.statusCode, 204);
      assert.equal((await asUser(h, a, 'GET', '/api/v1/session')).statusCode, 401);
      assert.equal((await asUser(h, b, 'GET', '/api/v1/session')).statusCode, 401);
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: TEST_PASSWORD } })).statusCode, 401);
      await signIn(h, user.email, 'brand-new-password');
    });

    test('a deactivated user is refused at once, even with an open session, and cannot sign in', async () => {
      const user = await addUser(h, acct.accountId, 'member');
      const login = await signIn(h, user.email);
      await h.db.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
      assert.equal((await asUser(h, login, 'GET', '/api/v1/orgs')).statusCode, 401);
      const again = await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: TEST_PASSWORD } });
      assert.equal(again.statusCode, 401);
      assert.equal(again.json().message, 'Invalid email or password.');
    });

    test('sessions are rate-limited per user', async () => {
      const limited = await createHarness(engine, { clock, env: { CUSTOPS_CONSOLE_RATE_LIMIT_PER_MINUTE: '3' } });
      try {
        const a = await createTestAccount(limited);
        const u = await addUser(limited, a.accountId, 'member');
        const login = await signIn(limited, u.email);
        for (let i = 0; i < 3; i++) {
          const r = await asUser(limited, login, 'GET', '/api/v1/orgs');
          assert.equal(r.statusCode, 200);
          assert.equal(r.headers['ratelimit-limit'], '3');
        }
        const over = await asUser(limited, login, 'GET', '/api/v1/orgs');
        assert.equal(over.statusCode, 429);
        assert.equal(over.json().error, 'rate_limited');
        // The account's API key has its own budget.
        assert.equal((await call(limited, 'GET', '/api/v1/orgs', { key: a.key })).statusCode, 200);
      } finally {
        await limited.close();
      }
    });

    test('CUSTOPS_COOKIE_SECURE=1 marks the cookie Secure', async () => {
      const secure = await createHarness(engine, { env: { CUSTOPS_COOKIE_SECURE: '1' } });
      try {
        const a = await createTestAccount(secure);
        const u = await addUser(secure, a.accountId, 'member');
        const res = await call(secure, 'POST', '/api/v1/session', { body: { email: u.email, password: TEST_PASSWORD } });
        assert.match(String(res.headers['set-cookie']), /; HttpOnly; Secure; SameSite=Lax$/);
      } finally {
        await secure.close();
      }
    });
  });
}
