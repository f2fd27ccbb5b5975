import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { FixedClock, systemClock, type Clock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import type { Scope } from '../../src/modules/api-keys/scopes.ts';
import { createTestDatabase, type EngineName, type TestDatabase } from './engines.ts';

export interface Harness {
  engine: EngineName;
  app: App;
  db: Db;
  database: TestDatabase;
  config: Config;
  clock: Clock;
  /**
   * Public ids of the events still to be dispatched, as a dispatcher woken by the last write found
   * them (read when the write path woke it, after its commit); null when no write has woken it yet.
   */
  lastWake: () => Promise<string[] | null>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  clock?: Clock;
}

/**
 * The scrypt cost of the passwords tests make (`CUSTOPS_PASSWORD_COST`): 2^10 instead of 2^15, a
 * 32nd of the CPU (the suite hashes and verifies a few hundred passwords). Verifying reads the cost
 * stored in each hash, so sign-in works the same; test/unit/signature.test.ts checks the default.
 */
export const TEST_PASSWORD_COST = 10;

/** One app over one fresh database, for one test file and engine. */
export async function createHarness(engine: EngineName, options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase(engine);
  const config = loadConfig({
    DATABASE_URL: database.url,
    CUSTOPS_RATE_LIMIT_PER_MINUTE: '100000',
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    CUSTOPS_PASSWORD_COST: String(TEST_PASSWORD_COST),
    ...options.env,
  });
  const clock = options.clock ?? systemClock;
  let lastWake: Promise<string[]> | null = null;
  const pending = () =>
    database.handle.db
      .selectFrom('events')
      .select('public_id')
      .where('dispatched_at', 'is', null)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => r.public_id));
  const app = await buildApp(config, {
    database: database.handle,
    clock,
    logger: false,
    wakeDispatcher: () => {
      lastWake = pending();
    },
  });
  await app.ready();
  return {
    engine,
    app,
    db: database.handle.db,
    database,
    config,
    clock,
    lastWake: async () => lastWake,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

export interface TestAccount {
  accountId: number;
  ownerId: number;
  /** A full-access key secret. */
  key: string;
  /** Makes another key of this account with the given scopes (or a rate limit). */
  keyWith(scopes: Scope[], rateLimitPerMinute?: number | null): Promise<string>;
}

let accountCounter = 0;

/** Each test makes its own account, so tests never depend on one another's data. */
export async function createTestAccount(h: Harness, name?: string): Promise<TestAccount> {
  const n = ++accountCounter;
  const deps = { db: h.db, clock: h.clock };
  const { account, owner } = await createAccount(deps, { name: name ?? `Account ${n}`, ownerEmail: `owner${n}-${randomBytes(3).toString('hex')}@example.com` });
  const full = await createApiKey(deps, { accountId: account.id, name: 'full', scopes: ['*'], rateLimitPerMinute: null });
  return {
    accountId: account.id,
    ownerId: owner!.id,
    key: full.secret,
    async keyWith(scopes, rateLimitPerMinute = null) {
      return (await createApiKey(deps, { accountId: account.id, name: 'scoped', scopes, rateLimitPerMinute })).secret;
    },
  };
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

/** An HTTP call through Fastify's injector, with the key as a Bearer token and JSON in and out. */
export async function call(
  h: Harness,
  method: InjectOptions['method'],
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse & { json: () => any }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const query = options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) : undefined;
  return h.app.inject({ method, url, headers, payload, query }) as Promise<LightMyRequestResponse & { json: () => any }>;
}

export { FixedClock };
