import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { emitEvent } from '../../src/modules/events/outbox.ts';
import { createTestDatabase, onEachEngineAtOnce, type TestDatabase } from '../helpers/engines.ts';
import { custops, freePort, waitForHttp, waitUntil, type Child } from './helpers/processes.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { deliveringProcessEnv, SAMPLE_ENTITIES, testPki } from './helpers/setup.ts';

onEachEngineAtOnce('crash safety, each engine at once', (engine) => {
  describe(`crash safety: custops serve as a child process [${engine}]`, () => {
    let db: TestDatabase;
    let receiver: Receiver;
    const children: Child[] = [];
    before(async () => {
      db = await createTestDatabase(engine, { sqlitePath: join(mkdtempSync(join(tmpdir(), 'custops-crash-')), 'crash.db') });
      receiver = await startReceiver(testPki());
    });
    after(async () => {
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
      await receiver.close();
      await db.drop();
    });

    test('SIGKILL while deliveries are in flight, restart: every event arrives at least once and every delivery ends sent; SIGTERM finishes in-flight attempts', async () => {
      const port = await freePort();
      const env = deliveringProcessEnv(db.url, { timeoutMs: 1500, dataDir: mkdtempSync(join(tmpdir(), 'custops-crash-data-')) });
      const serve = () => {
        const c = custops(['serve', '--port', String(port)], env);
        children.push(c);
        return c;
      };
      const deps = { db: db.handle.db, clock: systemClock };
      const { account } = await createAccount(deps, { name: 'Crash test' });
      const key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: null })).secret;

      const first = serve();
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, first, 60_000);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'crash', url: receiver.url('/crash'), event_types: ['deal.won'] }),
      });
      assert.equal(res.status, 201);
      receiver.on('/crash', () => ({ delayMs: 150 }));

      const emitted: string[] = [];
      const emitMany = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const e = await db.handle.db
            .transaction()
            .execute((trx) => emitEvent(trx, { accountId: account.id, orgId: 1, type: 'deal.won', entity: SAMPLE_ENTITIES['deal.won'], now: Date.now() }));
          emitted.push(e.public_id);
        }
      };
      await emitMany(60);
      await waitUntil('deliveries in flight', () => receiver.received.length >= 5 && receiver.inFlight() >= 1, 20_000, 5);
      first.proc.kill('SIGKILL');
      assert.equal((await first.exited).signal, 'SIGKILL');
      const beforeRestart = receiver.received.length;
      assert.ok(beforeRestart < 60, `killed mid-way (${beforeRestart} of 60 received)`);
      await emitMany(20); // written while no dispatcher runs

      const second = serve();
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, second, 60_000);
      const statuses = async () => db.handle.db.selectFrom('webhook_deliveries').select(['status']).execute();
      await waitUntil(
        'every delivery sent',
        async () => {
          const rows = await statuses();
          return rows.length === emitted.length && rows.every((r) => r.status === 'sent');
        },
        45_000,
        200,
      );
      const seen = new Set(receiver.received.filter((r) => r.path === '/crash').map((r) => r.headers['x-service-event-id']));
      for (const id of emitted) assert.ok(seen.has(id), `${id} reached the receiver`);

      // Graceful stop: an attempt in flight at SIGTERM completes and is recorded before exit.
      receiver.on('/crash', () => ({ delayMs: 700 }));
      const count = receiver.received.length;
      await emitMany(1);
      await waitUntil('the last attempt in flight', () => receiver.received.length > count, 10_000, 5);
      second.proc.kill('SIGTERM');
      const exit = await second.exited;
      assert.equal(exit.code, 0, second.output());
      const last = await db.handle.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('events as e', 'e.id', 'd.event_id')
        .select(['d.status', 'd.attempts'])
        .where('e.public_id', '=', emitted.at(-1)!)
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...last }, { status: 'sent', attempts: 1 });
    });
  });
});
