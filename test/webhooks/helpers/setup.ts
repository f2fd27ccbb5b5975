import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config.ts';
import { emitEvent } from '../../../src/modules/events/outbox.ts';
import type { EventEntities, EventType } from '../../../src/modules/events/catalog.ts';
import { Dispatcher, type DispatcherOptions } from '../../../src/modules/webhooks/dispatcher.ts';
import { call, createHarness, FixedClock, type Harness, type TestAccount } from '../../helpers/harness.ts';
import type { EngineName } from '../../helpers/engines.ts';
import { makeTestPki, type TestPki } from './tls.ts';
import { startReceiver, type Receiver } from './receiver.ts';

export { SAMPLE_ENTITIES } from './sample-entities.ts';

let pki: TestPki | null = null;
export function testPki(): TestPki {
  pki ??= makeTestPki();
  return pki;
}

/**
 * The environment of a `custops` child process that delivers webhooks to the test receiver: a fresh
 * secret key, the throwaway CA trusted the way production trusts any CA (through Node's store),
 * private targets allowed, and every retry one second after the last.
 */
export function deliveringProcessEnv(databaseUrl: string, options: { timeoutMs: number; dataDir: string }): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    NODE_EXTRA_CA_CERTS: testPki().caFile,
    CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1',
    CUSTOPS_WEBHOOK_TIMEOUT_MS: String(options.timeoutMs),
    CUSTOPS_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1',
    CUSTOPS_DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
  };
}

export interface WebhookEnv {
  h: Harness;
  clock: FixedClock;
  receiver: Receiver;
  pki: TestPki;
  dispatcher(over?: Partial<Omit<DispatcherOptions, 'config'>> & { config?: Partial<Config> }): Dispatcher;
  close(): Promise<void>;
}

/** A harness that may target 127.0.0.1, a real HTTPS receiver trusted through the dispatcher's CA option. */
export async function webhookEnv(engine: EngineName, env: Record<string, string> = {}): Promise<WebhookEnv> {
  const p = testPki();
  // Whole seconds, near real time, so Standard Webhooks' 5-minute tolerance holds for real verifiers.
  const clock = new FixedClock(Math.floor(Date.now() / 1000) * 1000);
  const h = await createHarness(engine, { clock, env: { CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1', CUSTOPS_WEBHOOK_TIMEOUT_MS: '1000', ...env } });
  const receiver = await startReceiver(p);
  const made: Dispatcher[] = [];
  return {
    h,
    clock,
    receiver,
    pki: p,
    dispatcher(over = {}) {
      const { config, ...rest } = over;
      const d = new Dispatcher({ database: h.database.handle, config: { ...h.config, ...config }, clock, ca: p.ca, random: () => 0.5, ...rest });
      made.push(d);
      return d;
    },
    async close() {
      for (const d of made) await d.stop();
      await receiver.close();
      await h.close();
    },
  };
}

export async function createEndpoint(h: Harness, a: TestAccount, url: string, eventTypes: string[], extra: Record<string, unknown> = {}) {
  const res = await call(h, 'POST', '/api/v1/webhooks/endpoints', { key: a.key, body: { name: 'hook', url, event_types: eventTypes, ...extra } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: number; secret: string };
}

export async function emit<T extends EventType>(h: Harness, accountId: number, type: T, entity: EventEntities[T], orgId = 7) {
  return h.db.transaction().execute((trx) => emitEvent(trx, { accountId, orgId, type, entity, now: h.clock.now() }));
}

/** Runs `fn` with Date.now() answering the fake clock (for verifiers that read the real time). */
export function atClock<T>(clock: FixedClock, fn: () => T): T {
  const real = Date.now;
  Date.now = () => clock.now();
  try {
    return fn();
  } finally {
    Date.now = real;
  }
}
