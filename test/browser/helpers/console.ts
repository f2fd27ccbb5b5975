import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { waitUntil } from '../../webhooks/helpers/processes.ts';
import { EVENT_TYPES } from '../../../src/modules/events/catalog.ts';
import { startReceiver, type Receiver } from '../../webhooks/helpers/receiver.ts';
import { makeTestPki } from '../../webhooks/helpers/tls.ts';
import { DESKTOP, launchBrowser, newContext, watchErrors } from './browser.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleUser } from './server.ts';

export interface ConsoleOptions {
  /** A real HTTPS receiver on 127.0.0.1, signed by a throwaway CA the server trusts. */
  receiver?: boolean;
  /** Registers the receiver as a webhook endpoint for every catalog event (implies `receiver`). */
  subscribeAll?: boolean;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
}

export interface ConsoleTest {
  /** The `custops serve` child of this file (one per file). */
  readonly server: ConsoleServer;
  /** The Chromium of this file (one per file). */
  readonly browser: Browser;
  /** Only with the `receiver` option. */
  readonly receiver: Receiver;
  /**
   * A page in a fresh browser context at `path`, signed in as `user` (null: signed out), with its
   * uncaught page and console errors collected in `errors`. Closed after the test.
   */
  open(user: ConsoleUser | null, path: string, options?: OpenOptions): Promise<{ page: Page; errors: string[] }>;
  /** Creates through the API (full-access key; a path starting `PUT ` is a PUT) and returns the body; fails the test on a non-2xx. */
  create(path: string, body: unknown): Promise<any>;
  /** Reads through the API; fails the test unless 200. */
  get(path: string): Promise<any>;
  /** Payloads of the events the receiver got, parsed, of one type. */
  events(type: string): any[];
  waitForEvent(type: string, match: (payload: any) => boolean): Promise<any>;
}

/**
 * Registers the set-up and tear-down of a browser test file in the calling `describe`: one
 * Chromium and one `custops serve` (SQLite) for the file, started side by side, both stopped
 * after it, and the browser contexts a test opened closed after that test. Each user signs in
 * once through the API; later contexts reuse that session (signing in through the form is
 * what sign-in.test.ts tests).
 */
export function useConsoleServer(options: ConsoleOptions = {}): ConsoleTest {
  let server: ConsoleServer | undefined;
  let browser: Browser | undefined;
  let receiver: Receiver | undefined;
  let launching: Promise<Browser> | undefined;
  const contexts: BrowserContext[] = [];
  const sessions = new Map<string, BrowserContextOptions['storageState']>();
  const wantsReceiver = options.receiver || options.subscribeAll;

  before(async () => {
    // Chromium boots in its own process while the certificates are made here.
    launching = launchBrowser();
    launching.catch(() => undefined); // awaited below, and closed after the file even if the rest fails
    const pki = wantsReceiver ? makeTestPki() : null;
    if (pki) receiver = await startReceiver(pki);
    const env: Record<string, string> = {
      // The tests read back through the API far more often than an integration would.
      CUSTOPS_RATE_LIMIT_PER_MINUTE: '100000',
      ...(pki ? { NODE_EXTRA_CA_CERTS: pki.caFile } : {}),
    };
    const [launched, started] = await Promise.allSettled([launching, startConsoleServer({ env })]);
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'rejected') throw launched.reason;
    if (started.status === 'rejected') throw started.reason;
    if (options.subscribeAll) {
      await fixture.create('/api/v1/webhooks/endpoints', { name: 'receiver', url: receiver!.url('/hook'), event_types: EVENT_TYPES, enabled: true });
    }
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    await launching?.then((b) => b.close()).catch(() => undefined);
    // The server before the receiver: its dispatcher holds keep-alive connections to the receiver.
    await server?.stop();
    await receiver?.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    assert.ok(value, `${what} is not running (see the before hook's error)`);
    return value;
  };

  async function sessionOf(user: ConsoleUser) {
    let state = sessions.get(user.email);
    if (!state) {
      const context = await started(browser, 'the browser').newContext({ baseURL: started(server, 'the server').url });
      const res = await context.request.post('/api/v1/session', { data: { email: user.email, password: user.password } });
      assert.ok(res.ok(), `signing ${user.email} in: ${res.status()} ${await res.text()}`);
      state = await context.storageState();
      await context.close();
      sessions.set(user.email, state);
    }
    return state;
  }

  const fixture: ConsoleTest = {
    get server() {
      return started(server, 'the server');
    },
    get browser() {
      return started(browser, 'the browser');
    },
    get receiver() {
      return started(receiver, 'the receiver (option `receiver`)');
    },
    async open(user, path, openOptions = {}) {
      const storageState = user ? await sessionOf(user) : undefined;
      const context = await newContext(fixture.browser, fixture.server.url, openOptions.viewport ?? DESKTOP, storageState);
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(path);
      return { page, errors };
    },
    async create(path, body) {
      const res = await fixture.server.api(path.startsWith('PUT ') ? 'PUT' : 'POST', path.replace(/^PUT /, ''), body);
      assert.ok(res.status >= 200 && res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json;
    },
    async get(path) {
      const res = await fixture.server.api('GET', path);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.json)}`);
      return res.json;
    },
    events(type) {
      return fixture.receiver.received.filter((r) => r.headers['x-service-event'] === type).map((r) => JSON.parse(r.raw.toString('utf8')));
    },
    async waitForEvent(type, match) {
      await waitUntil(`${type} delivered`, () => fixture.events(type).some(match), 20_000);
      return fixture.events(type).find(match);
    },
  };
  return fixture;
}
