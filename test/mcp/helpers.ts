import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import type { Scope } from '../../src/modules/api-keys/scopes.ts';
import { createTestDatabase, type EngineName, type TestDatabase } from '../helpers/engines.ts';
import { custops, freePort, waitForHttp, type Child } from '../webhooks/helpers/processes.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServedAccount {
  accountId: number;
  /** A full-access key. */
  key: string;
  keyWith(scopes: Scope[], rateLimitPerMinute?: number | null): Promise<{ id: number; secret: string }>;
}

/** A real `custops serve` child process over a fresh database of the engine. */
export interface Served {
  url: string;
  db: TestDatabase;
  child: Child;
  account(name?: string): Promise<ServedAccount>;
  revoke(keyId: number): Promise<void>;
  /** A REST call with a key: status, headers and parsed body. */
  rest(method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export async function startServed(engine: EngineName, env: Record<string, string> = {}): Promise<Served> {
  const db = await createTestDatabase(engine, { sqlitePath: join(mkdtempSync(join(tmpdir(), 'custops-mcp-')), 'mcp.db') });
  const port = await freePort();
  const child = custops(['serve', '--port', String(port)], {
    DATABASE_URL: db.url,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    CUSTOPS_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    // A loaded machine (several suites start servers at once) can take a while to start one.
    await waitForHttp(`${url}/healthz`, child, 60_000);
  } catch (err) {
    child.proc.kill('SIGKILL');
    await db.drop();
    throw err;
  }
  const deps = { db: db.handle.db, clock: systemClock };
  let n = 0;
  return {
    url,
    db,
    child,
    async account(name) {
      const { account } = await createAccount(deps, { name: name ?? `MCP ${++n}` });
      const full = await createApiKey(deps, { accountId: account.id, name: 'full', scopes: ['*'], rateLimitPerMinute: null });
      return {
        accountId: account.id,
        key: full.secret,
        async keyWith(scopes, rateLimitPerMinute = null) {
          const made = await createApiKey(deps, { accountId: account.id, name: 'agent', scopes, rateLimitPerMinute });
          return { id: made.id, secret: made.secret };
        },
      };
    },
    async revoke(keyId) {
      await revokeApiKey(deps, keyId);
    },
    async rest(method, path, key, body, headers = {}) {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      child.proc.kill('SIGTERM');
      const exited = await Promise.race([child.exited, new Promise((r) => setTimeout(r, 10_000, null))]);
      if (exited === null) child.proc.kill('SIGKILL');
      await db.drop();
    },
  };
}

export type Era = 'legacy' | 'modern';

/** The official SDK client over Streamable HTTP with the key as a Bearer token. */
export async function httpClient(url: string, key: string, era: Era = 'modern'): Promise<Client> {
  const client = new Client({ name: 'custops-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

/** The official SDK client over stdio, starting `custops mcp --url` as a real child process. */
export async function stdioClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'custops-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'custops.js'), 'mcp', '--url', url],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CUSTOPS_API_KEY: key },
    stderr: 'pipe',
    cwd: ROOT,
  });
  await client.connect(transport);
  return client;
}

export type Connect = (key: string) => Promise<Client>;

/** Both ways an agent reaches the tools: the HTTP endpoint and the stdio command. */
export function transports(served: () => Served): { name: string; connect: Connect }[] {
  return [
    { name: 'http', connect: (key) => httpClient(served().url, key) },
    { name: 'stdio', connect: (key) => stdioClient(served().url, key) },
  ];
}

/** A raw JSON-RPC POST to /mcp (for what a well-behaved client never sends). */
export async function rawMcp(url: string, body: string | Uint8Array, headers: Record<string, string> = {}, method = 'POST') {
  const res = await fetch(`${url}/mcp`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const JSONRPC_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
