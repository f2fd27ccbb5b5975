import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrations } from '../src/db/migrate.ts';
import { commands } from '../src/cli/commands.ts';
import { assertFailed, type CliRun, cliEnv, jsonLine, keyCreate, runCli } from './helpers/cli.ts';
import { engines, type EngineName } from './helpers/engines.ts';

const NODE = 'node_modules/.bin/node';

/** A scratch database for the child processes: a SQLite file, or a PostgreSQL schema selected by the URL. */
async function scratchDatabase(engine: EngineName, dir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (engine === 'sqlite') return { url: `sqlite:${join(dir, 'cli.db')}`, drop: async () => {} };
  const base = process.env.TEST_POSTGRES_URL!;
  const schema = `cli_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const sep = base.includes('?') ? '&' : '?';
  return {
    url: `${base}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

for (const engine of engines()) {
  // The commands run in process through main() (their logic, output and exit codes); two smoke
  // tests start real processes to prove the executable, stdout/stderr and signals.
  describe(`custops CLI [${engine}]`, () => {
    let dir: string;
    let drop: () => Promise<void>;
    let env: NodeJS.ProcessEnv;
    let db: DatabaseHandle;

    const start = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
      spawn(NODE, ['bin/custops.js', ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });

    const runProcess = (args: string[]): Promise<CliRun> =>
      new Promise((resolve, reject) => {
        const child = start(args);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });

    const run = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runCli(args, { ...env, ...extraEnv });

    const json = async (args: string[]) => jsonLine(await run(args), args.join(' '));

    /** A failure: non-zero exit, nothing on stdout, exactly one line on stderr. */
    const fails = async (args: string[], pattern: RegExp, extraEnv: NodeJS.ProcessEnv = {}) => assertFailed(await run(args, extraEnv), args.join(' '), pattern);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'custops-cli-'));
      const scratch = await scratchDatabase(engine, dir);
      drop = scratch.drop;
      env = cliEnv(scratch.url, dir, 'info');
      db = openDatabase(scratch.url, { poolSize: 2 });
    });
    after(async () => {
      await db.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('migrate (a real process) runs every migration on an empty database, then nothing', async () => {
      const first = await runProcess(['migrate']);
      assert.deepEqual([first.code, first.stderr], [0, '']);
      assert.deepEqual(JSON.parse(first.stdout), { migrated: Object.keys(migrations) });
      assert.deepEqual(await json(['migrate']), { migrated: [] });
      assertFailed(await runProcess(['frobnicate']), 'frobnicate', /unknown command "frobnicate"/, 2);
    });

    test('account create prints the account and the owner or null', async () => {
      const bare = await json(['account', 'create', '--name', 'Acme Ltd']);
      assert.deepEqual(bare, { account: { id: bare.account.id, name: 'Acme Ltd' }, owner: null });
      assert.ok(Number.isInteger(bare.account.id) && bare.account.id > 0);
      const owned = await json(['account', 'create', '--name', 'Globex', '--owner-email', 'Boss@Globex.example', '--owner-password', 'hunter2-hunter2']);
      assert.deepEqual(owned, { account: { id: bare.account.id + 1, name: 'Globex' }, owner: { id: owned.owner.id, email: 'Boss@Globex.example' } });
      const user = await db.db.selectFrom('users').selectAll().where('id', '=', owned.owner.id).executeTakeFirstOrThrow();
      assert.equal(user.role, 'owner');
      assert.match(user.password_hash!, /^scrypt\$/);
      await fails(['account', 'create'], /--name is required/);
      await fails(['account', 'create', '--name', 'X', '--owner-email', 'not-an-email'], /--owner-email/);
    });

    test('key create: full access by default, explicit scopes, rate limit, and refusals', async () => {
      const { account } = await json(['account', 'create', '--name', 'Keys Inc']);
      const full = await json(keyCreate(account.id, 'ci'));
      assert.deepEqual(full, { id: full.id, name: 'ci', scopes: ['*'], rate_limit_per_minute: null, secret: full.secret });
      assert.match(full.secret, /^cok_[A-Za-z0-9_-]{43}$/);
      const scoped = await json(keyCreate(account.id, 'agent', '--scopes', 'deals:read, deals:write', '--rate-limit', '120'));
      assert.deepEqual(
        { ...scoped, id: 0, secret: '' },
        { id: 0, name: 'agent', scopes: ['deals:read', 'deals:write'], rate_limit_per_minute: 120, secret: '' },
      );
      const row = await db.db.selectFrom('api_keys').selectAll().where('id', '=', scoped.id).executeTakeFirstOrThrow();
      assert.equal(row.rate_limit_per_minute, 120);
      assert.ok(!JSON.stringify(row).includes(scoped.secret), 'the secret is not stored');
      const before = await db.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await fails(keyCreate(account.id, 'bad', '--scopes', 'deals:read,deals:destroy'), /unknown scope.*deals:destroy/);
      await fails(keyCreate(999999, 'ghost'), /no account/);
      await fails(keyCreate(account.id, 'x', '--rate-limit', '0'), /--rate-limit/);
      await fails(keyCreate('abc', 'x'), /--account/);
      await fails(['key', 'create', '--name', 'x'], /--account/);
      const afterCount = await db.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n), 'refused keys are not created');
      await fails(['key', 'revoke', '--id', '999999'], /no API key/);
    });

    test('usage and configuration errors: non-zero exit, one line on stderr', async () => {
      await fails(['frobnicate'], /unknown command "frobnicate"/);
      await fails(['key'], /unknown command "key/);
      await fails(['account', 'delete'], /unknown command "account delete"/);
      await fails(['account', 'create', '--name', 'X', '--colour', 'red'], /colour/);
      await fails(['serve', '--port', 'eighty'], /--port/);
      await fails(['demo', '--seed', '-3'], /seed/);
      await fails(['migrate'], /DATABASE_URL/, { DATABASE_URL: 'mysql://localhost/x' });
      await fails(['serve'], /LOG_LEVEL/, { LOG_LEVEL: 'loud' });
      const help = await run(['help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /custops key create --account ID/);
      assert.match(help.stdout, /CUSTOPS_IDEMPOTENCY_TTL_HOURS/, 'the settings are listed');
      const bare = await run([]);
      assert.deepEqual([bare.code, bare.stdout], [2, help.stdout], 'no command: the usage, and a failing exit code');
    });

    test('every command answers --help with its usage and options, and runs nothing', async () => {
      for (const command of commands) {
        const words = command.name.split(' ');
        // Even with an invalid configuration: --help reads no settings and opens no database.
        const help = await run([...words, '--help'], { DATABASE_URL: 'mysql://nowhere' });
        assert.equal(help.code, 0, command.name);
        assert.equal(help.stderr, '');
        assert.ok(help.stdout.startsWith(`custops ${command.name}`), help.stdout);
        for (const flag of Object.keys(command.options)) assert.match(help.stdout, new RegExp(`--${flag}\\b`), `${command.name} --${flag}`);
      }
      const group = await run(['key', '--help']);
      assert.equal(group.code, 0);
      assert.match(group.stdout, /custops key create[\s\S]*custops key revoke/);
    });

    test('demo creates a realistic account with a working full-access key', async () => {
      const demo = await json(['demo', '--seed', '3']);
      assert.deepEqual(Object.keys(demo), ['account', 'key']);
      assert.deepEqual(demo.account, { id: demo.account.id, name: 'Northwind Demo' });
      assert.deepEqual({ ...demo.key, id: 0, secret: '' }, { id: 0, name: 'demo', scopes: ['*'], rate_limit_per_minute: null, secret: '' });
      const acc = demo.account.id;
      const count = async (sqlTable: 'deals' | 'tickets', status: string) =>
        Number(
          (
            await db.db
              .selectFrom(sqlTable)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('account_id', '=', acc)
              .where('status', '=', status as never)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const dealCounts: Record<string, number> = {};
      for (const s of ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost']) dealCounts[s] = await count('deals', s);
      assert.ok(
        Object.values(dealCounts).every((n) => n > 0),
        JSON.stringify(dealCounts),
      );
      for (const s of ['open', 'pending', 'closed']) assert.ok((await count('tickets', s)) > 0, `tickets ${s}`);
      const users = await db.db.selectFrom('users').select(['role', 'is_active']).where('account_id', '=', acc).execute();
      assert.equal(users.filter((u) => !u.is_active).length, 1);
      assert.deepEqual([...new Set(users.map((u) => u.role))].sort(), ['admin', 'member', 'owner']);
      const kinds = await db.db.selectFrom('deal_activities').select('event_type').distinct().where('account_id', '=', acc).execute();
      assert.equal(kinds.length, 4);

      // Same seed, same data (in a new account).
      const again = await json(['demo', '--seed', '3']);
      assert.notEqual(again.account.id, acc);
      const titles = async (id: number) => await db.db.selectFrom('deals').select(['title', 'status']).where('account_id', '=', id).orderBy('id').execute();
      assert.deepEqual(await titles(again.account.id), await titles(acc));
    });

    test('serve --port 0 answers real HTTP, honours key revocation, and stops cleanly on SIGTERM', async () => {
      const { account } = await json(['account', 'create', '--name', 'Served']);
      const key = await json(keyCreate(account.id, 'http'));
      const child = start(['serve', '--port', '0']);
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          // Generous: a cold start compiles the sources, and CI machines may be busy.
          const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${stderr}`)), 40_000);
          child.stdout.on('data', (d) => {
            out += d;
            const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (m) {
              clearTimeout(timer);
              resolve(m[1]);
            }
          });
        });
        assert.equal((await fetch(`${url}/healthz`)).status, 200);
        const auth = { authorization: `Bearer ${key.secret}` };
        const ok = await fetch(`${url}/api/v1/orgs`, { headers: auth });
        assert.equal(ok.status, 200);
        assert.deepEqual(await ok.json(), { data: [], pagination: { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false } });
        assert.deepEqual(await json(['key', 'revoke', '--id', String(key.id)]), { id: key.id, revoked: true });
        const revoked = await fetch(`${url}/api/v1/orgs`, { headers: auth });
        assert.equal(revoked.status, 401);
        assert.equal(((await revoked.json()) as { error: string }).error, 'unauthorized');
        assert.deepEqual(await json(['key', 'revoke', '--id', String(key.id)]), { id: key.id, revoked: true }, 'revoking twice is harmless');
      } finally {
        child.kill('SIGTERM');
      }
      assert.deepEqual(await exited, [0, null], `clean exit; stderr: ${stderr}`);
      assert.equal(stderr, '');
    });
  });
}
