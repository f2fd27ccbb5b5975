import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { App } from '../src/http/types.ts';
import { verifyPassword } from '../src/lib/crypto.ts';
import { assertFailed, cliEnv, jsonLine, runCli } from './helpers/cli.ts';
import { createTestDatabase, engines, type TestDatabase } from './helpers/engines.ts';

for (const engine of engines()) {
  describe(`custops user create / user set-password [${engine}]`, () => {
    let dir: string;
    let database: TestDatabase;
    let env: NodeJS.ProcessEnv;
    let app: App;

    const json = async (args: string[]) => jsonLine(await runCli(args, env), args.join(' '));
    const fails = async (args: string[], code: number, pattern: RegExp) => assertFailed(await runCli(args, env), args.join(' '), pattern, code);
    const signIn = (email: string, password: string) => app.inject({ method: 'POST', url: '/api/v1/session', payload: { email, password } });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'custops-cli-users-'));
      database = await createTestDatabase(engine, engine === 'sqlite' ? { sqlitePath: join(dir, 'cli.db') } : {});
      env = cliEnv(database.url, dir, 'silent');
      app = await buildApp(loadConfig(env), { database: database.handle, logger: false });
    });
    after(async () => {
      await app.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('user create prints the user and a generated password that signs in to the console', async () => {
      const { account } = await json(['account', 'create', '--name', 'Team Co']);
      const out = await json(['user', 'create', '--account', String(account.id), '--email', 'Ana@Team.example', '--name', 'Ana Lima', '--role', 'admin']);
      assert.deepEqual(Object.keys(out), ['user', 'password']);
      assert.equal(out.user.email, 'Ana@Team.example');
      assert.equal(out.user.role, 'admin');
      assert.equal(out.user.support_enabled, true);
      assert.equal(out.user.is_active, true);
      assert.equal(typeof out.password, 'string');
      assert.ok(out.password.length >= 16);
      const stored = await database.handle.db.selectFrom('users').select('password_hash').where('id', '=', out.user.id).executeTakeFirstOrThrow();
      assert.ok(await verifyPassword(out.password, stored.password_hash!));
      const res = await signIn('ana@team.example', out.password);
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().user.role, 'admin');

      const given = await json([
        'user',
        'create',
        '--account',
        String(account.id),
        '--email',
        'bo@team.example',
        '--name',
        'Bo',
        '--role',
        'member',
        '--password',
        'a-given-password',
        '--no-support',
      ]);
      assert.equal(given.password, 'a-given-password');
      assert.equal(given.user.support_enabled, false);
    });

    test('user create refuses bad input with one line and writes nothing', async () => {
      const { account } = await json(['account', 'create', '--name', 'Strict Co']);
      const id = String(account.id);
      const count = async () =>
        Number(
          (
            await database.handle.db
              .selectFrom('users')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      await fails(
        ['user', 'create', '--account', id, '--email', 'x@y.example', '--name', 'X', '--role', 'boss'],
        2,
        /--role must be one of owner, admin, member/,
      );
      await fails(['user', 'create', '--account', id, '--email', 'not-an-email', '--name', 'X', '--role', 'member'], 2, /--email/);
      await fails(['user', 'create', '--account', id, '--email', 'x@y.example', '--name', 'X', '--role', 'member', '--password', 'short'], 2, /at least 8/);
      await fails(['user', 'create', '--account', id, '--email', 'x@y.example', '--role', 'member'], 2, /--name is required/);
      await fails(['user', 'create', '--account', '999999', '--email', 'x@y.example', '--name', 'X', '--role', 'member'], 1, /no account with id 999999/);
      assert.equal(await count(), before);
      await json(['user', 'create', '--account', id, '--email', 'dup@y.example', '--name', 'D', '--role', 'member']);
      await fails(['user', 'create', '--account', id, '--email', 'DUP@y.example', '--name', 'D', '--role', 'member'], 1, /already exists/);
    });

    test("user set-password changes the password and ends the user's sessions at once", async () => {
      const { account } = await json(['account', 'create', '--name', 'Reset Co']);
      const created = await json([
        'user',
        'create',
        '--account',
        String(account.id),
        '--email',
        'cy@reset.example',
        '--name',
        'Cy',
        '--role',
        'member',
        '--password',
        'first-password',
      ]);
      const login = await signIn('cy@reset.example', 'first-password');
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } })).statusCode, 200);

      const out = await json(['user', 'set-password', '--email', 'CY@reset.example', '--password', 'second-password']);
      assert.deepEqual(out, {
        user: { id: created.user.id, account_id: account.id, email: 'cy@reset.example' },
        password: 'second-password',
        sessions_ended: 1,
      });
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } })).statusCode, 401);
      assert.equal((await signIn('cy@reset.example', 'first-password')).statusCode, 401);
      assert.equal((await signIn('cy@reset.example', 'second-password')).statusCode, 201);

      const generated = await json(['user', 'set-password', '--email', 'cy@reset.example']);
      assert.equal((await signIn('cy@reset.example', generated.password)).statusCode, 201);

      await fails(['user', 'set-password', '--email', 'nobody@reset.example'], 1, /no team user with email/);
      await fails(['user', 'set-password', '--email', 'cy@reset.example', '--password', 'short'], 2, /at least 8/);
      // One email in two accounts: --account says which.
      const other = await json(['account', 'create', '--name', 'Other Co']);
      await json(['user', 'create', '--account', String(other.account.id), '--email', 'cy@reset.example', '--name', 'Cy 2', '--role', 'member']);
      await fails(['user', 'set-password', '--email', 'cy@reset.example'], 1, /pass --account/);
      const chosen = await json(['user', 'set-password', '--email', 'cy@reset.example', '--account', String(other.account.id), '--password', 'third-password']);
      assert.equal(chosen.user.account_id, other.account.id);
    });
  });
}
