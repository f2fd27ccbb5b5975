import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { makeTestPki, type TestPki } from '../../webhooks/helpers/tls.ts';
import { startReceiver, type Receiver } from '../../webhooks/helpers/receiver.ts';
import { waitUntil } from '../../webhooks/helpers/processes.ts';
import { startConsoleServer, type ConsoleServer } from '../helpers/server.ts';

/**
 * The team's-daily-work suites: a real `custops serve` (SQLite) that trusts a throwaway CA, and
 * a real HTTPS receiver signed by it, registered as a webhook endpoint for every catalog event.
 */
export interface WorkEnv {
  server: ConsoleServer;
  receiver: Receiver;
  pki: TestPki;
  /** Creates through the API (full-access key) and returns the body; fails the test on a non-2xx. */
  create(path: string, body: unknown): Promise<any>;
  get(path: string): Promise<any>;
  /** Payloads of the events the receiver got, parsed, of one type. */
  events(type: string): any[];
  waitForEvent(type: string, match: (payload: any) => boolean): Promise<any>;
  stop(): Promise<void>;
}

export const ALL_EVENTS = ['deal.created', 'deal.won', 'deal.lost', 'deal.activity.created', 'support.ticket.opened', 'support.ticket.closed', 'support.log.created'];

export async function startWorkEnv(): Promise<WorkEnv> {
  const pki = makeTestPki();
  const receiver = await startReceiver(pki);
  let server: ConsoleServer;
  try {
    // The tests read back through the API far more often than an integration would.
    server = await startConsoleServer({ env: { NODE_EXTRA_CA_CERTS: pki.caFile, CUSTOPS_RATE_LIMIT_PER_MINUTE: '100000' } });
  } catch (err) {
    await receiver.close();
    throw err;
  }
  const create = async (path: string, body: unknown) => {
    const res = await server.api(path.startsWith('PUT ') ? 'PUT' : 'POST', path.replace(/^PUT /, ''), body);
    assert.ok(res.status >= 200 && res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const get = async (path: string) => {
    const res = await server.api('GET', path);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.json)}`);
    return res.json;
  };
  await create('/api/v1/webhooks/endpoints', { name: 'receiver', url: receiver.url('/hook'), event_types: ALL_EVENTS, enabled: true });
  const events = (type: string) =>
    receiver.received.filter((r) => r.headers['x-service-event'] === type).map((r) => JSON.parse(r.raw.toString('utf8')));
  return {
    server,
    receiver,
    pki,
    create,
    get,
    events,
    async waitForEvent(type, match) {
      await waitUntil(`${type} delivered`, () => events(type).some(match), 20_000);
      return events(type).find(match);
    },
    async stop() {
      // The server first: its dispatcher holds keep-alive connections to the receiver.
      await server.stop();
      await receiver.close();
    },
  };
}

/** An org with a contact, through the API. */
export async function orgWithContact(env: WorkEnv, name: string, email: string): Promise<{ org: any; contact: any }> {
  const org = await env.create('/api/v1/orgs', { name });
  const contact = await env.create('/api/v1/contacts', { org_id: org.id, name: `${name} buyer`, email });
  return { org, contact };
}

/**
 * Waits until a page expression is true. (page.waitForFunction compiles its string with eval,
 * which the console's Content-Security-Policy forbids; page.evaluate does not need eval.)
 */
export async function waitForTrue(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
