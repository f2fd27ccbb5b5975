import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { emitEvent } from '../../src/modules/events/outbox.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/engines.ts';
import { custops, waitUntil, type Child } from './helpers/processes.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { SAMPLE_ENTITIES, testPki } from './helpers/setup.ts';
import { endpointRow } from './helpers/endpoint-row.ts';

describe('PostgreSQL: three worker processes', { skip: !process.env.TEST_POSTGRES_URL && 'needs TEST_POSTGRES_URL' }, () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let workers: Child[] = [];
  let accountId: number;
  const secretKey = randomBytes(32);

  async function endpoint(path: string, types: string[]) {
    const row = await db.handle.db
      .insertInto('webhook_endpoints')
      .values(endpointRow({ accountId, name: path, url: receiver.url(path), eventTypes: types, secretKey }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function emitMany(type: 'deal.won' | 'deal.lost', n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 100) {
      await db.handle.db.transaction().execute(async (trx) => {
        for (let j = i; j < Math.min(n, i + 100); j++) {
          ids.push((await emitEvent(trx, { accountId, orgId: 1, type, entity: SAMPLE_ENTITIES[type] as never, now: Date.now() })).public_id);
        }
      });
    }
    return ids;
  }

  before(async () => {
    db = await createTestDatabase('postgres');
    receiver = await startReceiver(testPki());
    accountId = (await createAccount({ db: db.handle.db, clock: systemClock }, { name: 'Workers' })).account.id;
    const env = {
      DATABASE_URL: db.url,
      CUSTOPS_SECRET_KEY: secretKey.toString('hex'),
      NODE_EXTRA_CA_CERTS: testPki().caFile,
      CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      LOG_LEVEL: 'info', // the start line waited for below is logged at info
    };
    workers = [0, 1, 2].map(() => custops(['worker'], env));
    await waitUntil('three workers started', () => workers.every((w) => w.output().includes('custops worker started')), 60_000);
  });

  after(async () => {
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
    await receiver.close();
    await db.drop();
  });

  test('2,000 events: each (event, endpoint) delivered exactly once', async () => {
    await endpoint('/fast-a', ['deal.won']);
    await endpoint('/fast-b', ['deal.won']);
    const ids = await emitMany('deal.won', 2000);
    await waitUntil('4,000 deliveries', () => receiver.received.filter((r) => r.path.startsWith('/fast-')).length >= 4000, 90_000, 100);
    const rows = await db.handle.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
    await waitUntil(
      'every delivery recorded',
      async () => (await db.handle.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'sent').execute()).length === 0,
      10_000,
    );
    assert.equal(rows.length, 4000);
    await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
    for (const path of ['/fast-a', '/fast-b']) {
      const counts = new Map<string, number>();
      for (const r of receiver.received.filter((x) => x.path === path))
        counts.set(String(r.headers['x-service-event-id']), (counts.get(String(r.headers['x-service-event-id'])) ?? 0) + 1);
      assert.equal(counts.size, 2000, `${path}: every event`);
      assert.deepEqual([...new Set(counts.values())], [1], `${path}: exactly once each`);
      assert.deepEqual(new Set(counts.keys()), new Set(ids));
    }
    const attempts = await db.handle.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(attempts.n), 4000, 'one attempt per delivery');
  });

  test('a slow endpoint (10 s responses) does not delay a fast one', async () => {
    receiver.on('/slow', () => ({ delayMs: 10_000 }));
    await endpoint('/slow', ['deal.lost']);
    await endpoint('/quick', ['deal.lost']);
    await emitMany('deal.lost', 60);
    await waitUntil('slow attempts in flight', () => receiver.inFlight() >= 10, 10_000);
    const t0 = Date.now();
    await waitUntil('all quick deliveries', () => receiver.received.filter((r) => r.path === '/quick').length >= 60, 5_000, 10);
    const took = Date.now() - t0;
    assert.ok(took < 3000, `the quick endpoint finished ${took} ms after the slow one filled up`);
    assert.ok(receiver.inFlight() >= 10, 'the slow attempts are still hanging');
  });

  test('SIGTERM: workers finish the attempts in flight and exit 0', async () => {
    const exits = workers.map((w) => w.exited);
    for (const w of workers) w.proc.kill('SIGTERM');
    const results = await Promise.all(exits);
    assert.deepEqual(
      results.map((r) => r.code),
      [0, 0, 0],
      workers.map((w) => w.output()).join('\n'),
    );
    const pending = await db.handle.db.selectFrom('webhook_deliveries').select(['status']).where('locked_until', 'is not', null).execute();
    assert.deepEqual(pending, [], 'no delivery left claimed');
  });
});
