import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tableCounts } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness, type TestAccount } from '../helpers/harness.ts';
import { addUser, asUser, signIn, type ConsoleLogin } from '../helpers/sessions.ts';

for (const engine of engines()) {
  describe(`console API keys and team management [${engine}]`, () => {
    let h: Harness;
    let acct: TestAccount;
    let other: TestAccount;
    let owner: ConsoleLogin;
    let admin: ConsoleLogin;
    let member: ConsoleLogin;
    before(async () => {
      h = await createHarness(engine);
      acct = await createTestAccount(h);
      other = await createTestAccount(h);
      owner = await signIn(h, (await addUser(h, acct.accountId, 'owner')).email);
      admin = await signIn(h, (await addUser(h, acct.accountId, 'admin')).email);
      member = await signIn(h, (await addUser(h, acct.accountId, 'member')).email);
    });
    after(() => h.close());

    test('an admin creates a key (secret once), it works, it is listed without its secret, revoking it refuses it', async () => {
      const created = await asUser(h, admin, 'POST', '/api/v1/api-keys', { body: { name: 'Agent <b>ro</b>', scopes: ['read'], rate_limit_per_minute: 30 } });
      assert.equal(created.statusCode, 201);
      const key = created.json();
      assert.match(key.secret, /^cok_/);
      assert.equal(key.prefix, key.secret.slice(0, key.prefix.length));
      assert.deepEqual(key.scopes, ['read']);
      assert.equal(key.rate_limit_per_minute, 30);
      assert.equal(key.name, 'Agent <b>ro</b>');
      assert.equal(key.revoked_at, null);
      assert.equal(created.headers.location, `/api/v1/api-keys/${key.id}`);
      assert.equal(created.headers['cache-control'], 'no-store');

      const used = await call(h, 'GET', '/api/v1/orgs', { key: key.secret });
      assert.equal(used.statusCode, 200);
      assert.equal(used.headers['ratelimit-limit'], '30');
      assert.equal((await call(h, 'POST', '/api/v1/orgs', { key: key.secret, body: { name: 'No' } })).statusCode, 403);

      const list = await asUser(h, owner, 'GET', '/api/v1/api-keys');
      assert.equal(list.statusCode, 200);
      const listed = list.json().data.find((k: any) => k.id === key.id);
      assert.ok(listed);
      assert.equal(listed.secret, undefined);
      assert.ok(!JSON.stringify(list.json()).includes(key.secret));
      assert.ok(list.json().data.every((k: any) => typeof k.prefix === 'string'));
      assert.equal(list.json().pagination.total, list.json().data.length);

      const revoked = await asUser(h, admin, 'POST', `/api/v1/api-keys/${key.id}/revoke`);
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json().revoked_at);
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: key.secret })).statusCode, 401);
      const again = await asUser(h, admin, 'POST', `/api/v1/api-keys/${key.id}/revoke`);
      assert.equal(again.json().revoked_at, revoked.json().revoked_at);
      const active = await asUser(h, owner, 'GET', '/api/v1/api-keys', { query: { include_revoked: '0' } });
      assert.ok(active.json().data.every((k: any) => k.revoked_at === null));
    });

    test('key creation: bad bodies are 422 naming the field; nothing written', async () => {
      const counts = await tableCounts(h.db);
      for (const [body, field] of [
        [{ name: 'x', scopes: [] }, 'scopes'],
        [{ name: 'x', scopes: ['deals:delete'] }, 'scopes.0'],
        [{ name: '', scopes: ['read'] }, 'name'],
        [{ name: 'x', scopes: ['read'], rate_limit_per_minute: 0 }, 'rate_limit_per_minute'],
        [{ name: 'x', scopes: ['read'], owner: 1 }, 'owner'],
        [{ scopes: ['read'] }, 'name'],
      ] as const) {
        const r = await asUser(h, owner, 'POST', '/api/v1/api-keys', { body });
        assert.equal(r.statusCode, 422, JSON.stringify(body));
        assert.ok(
          Object.keys(r.json().fields).some((f) => f === field || f.startsWith(field)),
          `${JSON.stringify(r.json().fields)} names ${field}`,
        );
      }
      assert.deepEqual(await tableCounts(h.db), counts);
    });

    test('members, API keys and other accounts are refused on key routes; nothing written', async () => {
      const mine = (await asUser(h, owner, 'POST', '/api/v1/api-keys', { body: { name: 'm', scopes: ['*'] } })).json();
      const theirs = (
        await asUser(h, await signIn(h, (await addUser(h, other.accountId, 'owner')).email), 'POST', '/api/v1/api-keys', { body: { name: 't', scopes: ['*'] } })
      ).json();
      const counts = await tableCounts(h.db);
      for (const [method, url] of [
        ['GET', '/api/v1/api-keys'],
        ['POST', '/api/v1/api-keys'],
        ['POST', `/api/v1/api-keys/${mine.id}/revoke`],
      ] as const) {
        const body = method === 'POST' && url.endsWith('keys') ? { name: 'x', scopes: ['*'] } : undefined;
        const asMember = await asUser(h, member, method, url, { body });
        assert.equal(asMember.statusCode, 403, `member ${method} ${url}`);
        assert.equal(asMember.json().error, 'forbidden');
        const withKey = await call(h, method, url, { key: acct.key, body });
        assert.equal(withKey.statusCode, 403, `key ${method} ${url}`);
        assert.equal((await call(h, method, url, { body })).statusCode, 401, `anonymous ${method} ${url}`);
      }
      const foreign = await asUser(h, owner, 'POST', `/api/v1/api-keys/${theirs.id}/revoke`);
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().error, 'api_key_not_found');
      assert.deepEqual(await tableCounts(h.db), counts);
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: theirs.secret })).statusCode, 200);
    });

    test('team: admins add users and change roles; only an owner makes or changes an owner', async () => {
      const added = await asUser(h, admin, 'POST', '/api/v1/users', {
        body: { email: 'new.hire@example.com', display_name: 'New Hire', role: 'member', password: 'first-password' },
      });
      assert.equal(added.statusCode, 201);
      const id = added.json().id;
      const ownerByAdmin = await asUser(h, admin, 'POST', '/api/v1/users', { body: { email: 'boss2@example.com', display_name: 'Boss', role: 'owner' } });
      assert.equal(ownerByAdmin.statusCode, 403);
      const byMember = await asUser(h, member, 'POST', '/api/v1/users', { body: { email: 'x@example.com', display_name: 'X' } });
      assert.equal(byMember.statusCode, 403);

      const promoted = await asUser(h, admin, 'PATCH', `/api/v1/users/${id}`, { body: { role: 'admin', support_enabled: true } });
      assert.equal(promoted.statusCode, 200);
      assert.deepEqual([promoted.json().role, promoted.json().support_enabled], ['admin', true]);
      assert.equal((await asUser(h, admin, 'PATCH', `/api/v1/users/${id}`, { body: { role: 'owner' } })).statusCode, 403);
      const madeOwner = await asUser(h, owner, 'PATCH', `/api/v1/users/${id}`, { body: { role: 'owner' } });
      assert.equal(madeOwner.json().role, 'owner');
      // An admin cannot demote or deactivate an owner.
      assert.equal((await asUser(h, admin, 'PATCH', `/api/v1/users/${id}`, { body: { role: 'member' } })).statusCode, 403);
      assert.equal((await asUser(h, admin, 'PATCH', `/api/v1/users/${id}`, { body: { is_active: false } })).statusCode, 403);
      assert.equal((await asUser(h, owner, 'PATCH', `/api/v1/users/${id}`, { body: { role: 'member' } })).json().role, 'member');
    });

    test('the last active owner keeps the role; nobody demotes or deactivates themselves', async () => {
      const a = await createTestAccount(h);
      const soleOwner = await signIn(h, (await addUser(h, a.accountId, 'owner')).email);
      // createTestAccount's owner has no password; deactivate it so soleOwner is the last active owner.
      await h.db.updateTable('users').set({ is_active: false }).where('id', '=', a.ownerId).execute();
      const self = await asUser(h, soleOwner, 'PATCH', `/api/v1/users/${soleOwner.userId}`, { body: { role: 'admin' } });
      assert.equal(self.statusCode, 409);
      const secondAdmin = await signIn(h, (await addUser(h, a.accountId, 'admin')).email);
      assert.equal((await asUser(h, secondAdmin, 'PATCH', `/api/v1/users/${secondAdmin.userId}`, { body: { is_active: false } })).statusCode, 409);
      const second = await addUser(h, a.accountId, 'owner');
      const demoteOther = await asUser(h, soleOwner, 'PATCH', `/api/v1/users/${second.id}`, { body: { role: 'member' } });
      assert.equal(demoteOther.statusCode, 200);
      // Now soleOwner really is the last one: another owner cannot be made to vanish either way.
      const viaOtherOwner = await signIn(h, (await addUser(h, a.accountId, 'owner')).email);
      assert.equal((await asUser(h, viaOtherOwner, 'PATCH', `/api/v1/users/${soleOwner.userId}`, { body: { is_active: false } })).statusCode, 200);
      const last = await asUser(h, soleOwner, 'PATCH', `/api/v1/users/${viaOtherOwner.userId}`, { body: { role: 'admin' } });
      assert.equal(last.statusCode, 401, "the deactivated owner's session ended");
      const blocked = await asUser(h, secondAdmin, 'PATCH', `/api/v1/users/${viaOtherOwner.userId}`, { body: { is_active: false } });
      assert.equal(blocked.statusCode, 403);
      const selfLast = await asUser(h, viaOtherOwner, 'PATCH', `/api/v1/users/${viaOtherOwner.userId}`, { body: { role: 'admin' } });
      assert.equal(selfLast.statusCode, 409);
      const reactivate = await asUser(h, viaOtherOwner, 'PATCH', `/api/v1/users/${soleOwner.userId}`, { body: { is_active: true } });
      assert.equal(reactivate.json().is_active, true);
      const demoteNow = await asUser(h, viaOtherOwner, 'PATCH', `/api/v1/users/${soleOwner.userId}`, { body: { role: 'admin' } });
      assert.equal(demoteNow.statusCode, 200);
      const lastOwner = await asUser(h, secondAdmin, 'PATCH', `/api/v1/users/${viaOtherOwner.userId}`, { body: { role: 'member' } });
      assert.equal(lastOwner.statusCode, 403);
    });

    test("deactivation ends the user's sessions at once; reactivation lets them sign in again", async () => {
      const user = await addUser(h, acct.accountId, 'member');
      const login = await signIn(h, user.email);
      assert.equal((await asUser(h, login, 'GET', '/api/v1/deals')).statusCode, 200);
      const off = await asUser(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { body: { is_active: false } });
      assert.equal(off.json().is_active, false);
      assert.equal(
        Number(
          (
            await h.db
              .selectFrom('console_sessions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('user_id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).n,
        ),
        0,
      );
      assert.equal((await asUser(h, login, 'GET', '/api/v1/deals')).statusCode, 401);
      assert.equal((await call(h, 'POST', '/api/v1/session', { body: { email: user.email, password: 'correct horse battery staple' } })).statusCode, 401);
      await asUser(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { body: { is_active: true } });
      await signIn(h, user.email);
    });

    test('team routes: bad input 422, other accounts 404, members and keys 403; nothing written', async () => {
      const target = await addUser(h, acct.accountId, 'member');
      const foreign = await addUser(h, other.accountId, 'member');
      const counts = await tableCounts(h.db);
      for (const body of [{}, { role: 'boss' }, { is_active: 'no' }, { display_name: '' }, { email: 'x@y.z' }]) {
        const r = await asUser(h, admin, 'PATCH', `/api/v1/users/${target.id}`, { body });
        assert.equal(r.statusCode, 422, JSON.stringify(body));
      }
      const notMine = await asUser(h, admin, 'PATCH', `/api/v1/users/${foreign.id}`, { body: { role: 'admin' } });
      assert.equal(notMine.statusCode, 404);
      assert.equal(notMine.json().error, 'user_not_found');
      assert.equal((await asUser(h, member, 'PATCH', `/api/v1/users/${target.id}`, { body: { role: 'admin' } })).statusCode, 403);
      assert.equal((await call(h, 'PATCH', `/api/v1/users/${target.id}`, { key: acct.key, body: { role: 'admin' } })).statusCode, 403);
      assert.equal((await asUser(h, admin, 'PATCH', `/api/v1/users/${target.id}`, { body: { role: 'admin' }, csrf: null })).statusCode, 403);
      assert.deepEqual(await tableCounts(h.db), counts);
      const row = await h.db.selectFrom('users').select('role').where('id', '=', target.id).executeTakeFirstOrThrow();
      assert.equal(row.role, 'member');
    });
  });
}
