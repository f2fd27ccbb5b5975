import { randomBytes } from 'node:crypto';
import { createWrite } from '../../../src/lib/write.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import { createAccount } from '../../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../../src/modules/api-keys/api-keys.service.ts';
import { createUser } from '../../../src/modules/users/users.service.ts';
import { TEST_PASSWORD_COST } from '../../helpers/harness.ts';
import { custops, freePort, waitForHttp, type Child } from '../../webhooks/helpers/processes.ts';

export interface ConsoleUser {
  id: number;
  email: string;
  password: string;
  name: string;
}

export interface ConsoleServer {
  url: string;
  accountId: number;
  owner: ConsoleUser;
  admin: ConsoleUser;
  member: ConsoleUser;
  /** A full-access key of the account, for setting up data through the API. */
  apiKey: string;
  /** The same SQLite file the server uses, for assertions and setup the API does not offer. */
  database: DatabaseHandle;
  child: Child;
  api(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

const PASSWORD = 'correct horse battery staple';

/** The account of a console test: its owner, an admin, a member and a full-access key. */
async function seedAccount(database: DatabaseHandle) {
  const deps = {
    db: database.db,
    clock: systemClock,
    config: { passwordCost: TEST_PASSWORD_COST },
    write: createWrite({ db: database.db, clock: systemClock, wakeDispatcher: () => {} }),
  };
  const tag = randomBytes(3).toString('hex');
  const { account, owner } = await createAccount(deps, {
    name: 'Acme Console',
    ownerEmail: `owner-${tag}@example.com`,
    ownerPassword: PASSWORD,
    ownerName: 'Olivia Owner',
  });
  const admin = await createUser(deps, account.id, { email: `admin-${tag}@example.com`, display_name: 'Adam Admin', role: 'admin', password: PASSWORD });
  const member = await createUser(deps, account.id, { email: `member-${tag}@example.com`, display_name: 'Mia Member', role: 'member', password: PASSWORD });
  const key = await createApiKey(deps, { accountId: account.id, name: 'setup', scopes: ['*'], rateLimitPerMinute: null });
  return { account, owner: owner!, admin, member, key };
}

/**
 * A real `custops serve` child process over a fresh SQLite file, with one account whose owner,
 * admin and member can sign in to the console (one server per test file).
 */
export async function startConsoleServer(options: { env?: Record<string, string> } = {}): Promise<ConsoleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-console-'));
  const databaseUrl = `sqlite:${join(dir, 'custops.db')}`;
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  // The child starts (several seconds of module loading) while the account and its users are written.
  const port = await freePort();
  const child = custops(['serve', '--port', String(port), '--no-migrate'], {
    DATABASE_URL: databaseUrl,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    CUSTOPS_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1',
    CUSTOPS_PASSWORD_COST: String(TEST_PASSWORD_COST),
    ...options.env,
  });
  const url = `http://127.0.0.1:${port}`;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;
  try {
    // A busy machine (two cores, several suites at once) can take most of a minute to start a server.
    [seeded] = await Promise.all([seedAccount(database), waitForHttp(`${url}/healthz`, child, 90_000)]);
  } catch (err) {
    child.proc.kill('SIGKILL');
    await child.exited;
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const { account, owner, admin, member, key } = seeded;
  return {
    url,
    accountId: account.id,
    owner: { id: owner.id, email: owner.email, password: PASSWORD, name: 'Olivia Owner' },
    admin: { id: admin.id, email: admin.email, password: PASSWORD, name: 'Adam Admin' },
    member: { id: member.id, email: member.email, password: PASSWORD, name: 'Mia Member' },
    apiKey: key.secret,
    database,
    child,
    async api(method, path, body, apiKey = key.secret) {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    async stop() {
      child.proc.kill('SIGTERM');
      // A request the browser abandoned while its handler ran (a context closed mid-load) keeps
      // `serve`'s drain waiting its whole 15 s; this server's data is thrown away, so 3 s of grace do.
      const killer = setTimeout(() => child.proc.kill('SIGKILL'), 3_000);
      await child.exited;
      clearTimeout(killer);
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
