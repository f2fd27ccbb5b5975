import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { claimDue } from '../../src/modules/webhooks/claim.repository.ts';
import { fanOut } from '../../src/modules/webhooks/dispatch.repository.ts';
import { RecordQueue } from '../../src/modules/webhooks/record-queue.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { endpointRow } from '../webhooks/helpers/endpoint-row.ts';

// The dispatcher's batch statements, each engine's own (dispatch.postgres.ts, dispatch.sqlite.ts),
// called as the dispatcher calls them: the same deliveries, leases, claims and records on both,
// whatever a batch's size. On SQLite a batch's values travel as one JSON array, so a batch of any
// size runs the statements a batch of one prepared.
/** Events straight into the outbox, as a write leaves them. */
async function emitEvents(db: Db, events: [accountId: number, type: string][], at: number): Promise<number[]> {
  const rows = events.map(([accountId, type], i) => ({
    account_id: accountId,
    public_id: `evt_batch_${at}_${i}`,
    event_type: type,
    org_id: 1,
    payload: `{"n":${i}}`,
    created_at: at,
    dispatched_at: null,
  }));
  return (await db.insertInto('events').values(rows).returning('id').execute()).map((r) => r.id);
}

for (const engine of engines()) {
  describe(`the dispatcher's batches [${engine}]`, () => {
    let t: TestDatabase;
    let accountA: number;
    let accountB: number;
    const endpoints: Record<string, number> = {};
    const secretKey = randomBytes(32);
    let clock = Date.now();
    const now = () => ++clock;

    before(async () => {
      t = await createTestDatabase(engine);
      accountA = (await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Batches A' })).account.id;
      accountB = (await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Batches B' })).account.id;
      const add = async (name: string, accountId: number, eventTypes: string[], extra: { enabled?: boolean; failing_since?: number } = {}) => {
        const row = { ...endpointRow({ accountId, name, url: `https://${name}.example/hook`, eventTypes, secretKey }), ...extra };
        endpoints[name] = (await t.handle.db.insertInto('webhook_endpoints').values(row).returning('id').executeTakeFirstOrThrow()).id;
      };
      await add('won', accountA, ['deal.won'], { failing_since: clock - 60_000 });
      await add('created', accountA, ['deal.created']);
      await add('off', accountA, ['deal.won'], { enabled: false });
      await add('other', accountB, ['deal.won']);
    });
    after(async () => {
      await t.drop();
    });

    const emit = (events: [accountId: number, type: string][]) => emitEvents(t.handle.db, events, now());
    const deliveriesOf = (eventIds: number[]) =>
      t.handle.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'event_id', 'endpoint_id', 'account_id', 'status', 'attempts', 'next_attempt_at', 'locked_until'])
        .where('event_id', 'in', eventIds)
        .orderBy('id')
        .execute();

    test('a fan-out makes one delivery per enabled subscribed endpoint of the account, leases within the caps at birth, and never twice', async () => {
      const ids = await emit([
        [accountA, 'deal.won'],
        [accountA, 'deal.won'],
        [accountB, 'deal.won'],
        [accountA, 'deal.created'],
        [accountA, 'deal.won'],
      ]);
      const at = now();
      const held = new Map([[endpoints.other, 1]]);
      const r = await fanOut(t.handle.db, at, 500, { lockedUntil: at + 60_000, room: 2, perEndpoint: 2, held });
      assert.equal(r.events, 5);
      const made = await deliveriesOf(ids);
      // Oldest first, one per (event, endpoint): the disabled endpoint and other accounts' types get nothing.
      assert.deepEqual(
        made.map((d) => [d.event_id, d.endpoint_id, d.account_id, d.status, d.attempts, d.next_attempt_at]),
        [
          [ids[0], endpoints.won, accountA, 'pending', 0, at],
          [ids[1], endpoints.won, accountA, 'pending', 0, at],
          [ids[2], endpoints.other, accountB, 'pending', 0, at],
          [ids[3], endpoints.created, accountA, 'pending', 0, at],
          [ids[4], endpoints.won, accountA, 'pending', 0, at],
        ],
      );
      // Room for two: the first two of `won`; `other` already holds one, and its allowance (2) is not the room.
      assert.deepEqual(
        made.map((d) => d.locked_until),
        [at + 60_000, at + 60_000, null, null, null],
      );
      assert.deepEqual(
        r.claimed.map((d) => [d.id, d.endpoint_id, d.attempts, d.url, d.payload]),
        made.slice(0, 2).map((d, i) => [d.id, endpoints.won, 0, 'https://won.example/hook', `{"n":${i}}`]),
      );
      assert.equal(r.complete, false);
      const dispatched = await t.handle.db.selectFrom('events').select('id').where('id', 'in', ids).where('dispatched_at', '=', at).execute();
      assert.equal(dispatched.length, 5);
      // The outbox is empty now: a second fan-out makes nothing.
      assert.deepEqual(await fanOut(t.handle.db, now(), 500, null), { events: 0, claimed: [], complete: false });
      assert.equal((await deliveriesOf(ids)).length, 5);

      // A claim takes the due, unleased ones, oldest first, within each endpoint's allowance.
      const claimedAt = now();
      const claimed = await claimDue(t.handle.db, claimedAt, 30_000, { room: 10, perEndpoint: 3, inflight: new Map([[endpoints.won, 2]]) });
      assert.deepEqual(
        claimed.map((d) => d.id),
        [made[2].id, made[3].id, made[4].id],
      );
      const leased = await deliveriesOf(ids);
      assert.deepEqual(
        leased.map((d) => d.locked_until),
        [at + 60_000, at + 60_000, claimedAt + 30_000, claimedAt + 30_000, claimedAt + 30_000],
      );
      // Nothing is left to claim.
      assert.deepEqual(await claimDue(t.handle.db, now(), 30_000, { room: 10, perEndpoint: 10, inflight: new Map() }), []);
    });

    test('sent attempts are recorded in one batch: marked sent, logged, the failure streak ended; a record behind the times goes the general way', async () => {
      const ids = await emit(Array.from({ length: 40 }, () => [accountA, 'deal.won'] as [number, string]));
      const at = now();
      await fanOut(t.handle.db, at, 500, null);
      const made = await deliveriesOf(ids);
      assert.equal(made.length, 40);
      const queue = new RecordQueue(t.handle.db);
      const record = (d: (typeof made)[number], previousAttempts: number, statusCode = 200) =>
        queue.add(
          {
            deliveryId: d.id,
            accountId: d.account_id,
            endpointId: d.endpoint_id,
            trigger: 'scheduled',
            statusCode,
            error: statusCode >= 200 && statusCode < 300 ? null : 'http_status',
            responseBody: `ok ${d.id}`,
            durationMs: 7,
            requestedAt: at + 5,
            previousAttempts,
          },
          (attemptNumber) => ({
            status: statusCode < 300 ? 'sent' : 'pending',
            attemptNumber,
            nextAttemptAt: statusCode < 300 ? null : at + 60_000,
            disabledReason: null,
          }),
        );
      // 39 in one batch; one of them claimed as if it had been attempted twice before (a stale claim).
      await Promise.all(made.slice(0, 39).map((d, i) => record(d, i === 5 ? 2 : 0)));
      const after = await deliveriesOf(ids);
      for (const d of after.slice(0, 39))
        assert.deepEqual([d.status, d.attempts, d.next_attempt_at, d.locked_until], ['sent', 1, null, null], `delivery ${d.id}`);
      assert.deepEqual([after[39].status, after[39].attempts], ['pending', 0]);
      const attempts = await t.handle.db
        .selectFrom('webhook_attempts')
        .select(['delivery_id', 'attempt_number', 'trigger', 'status_code', 'error', 'response_body', 'duration_ms', 'requested_at', 'account_id'])
        .where(
          'delivery_id',
          'in',
          made.map((d) => d.id),
        )
        .orderBy('delivery_id')
        .execute();
      assert.deepEqual(
        attempts.map((a) => ({ ...a })),
        made.slice(0, 39).map((d) => ({
          delivery_id: d.id,
          attempt_number: 1,
          trigger: 'scheduled',
          status_code: 200,
          error: null,
          response_body: `ok ${d.id}`,
          duration_ms: 7,
          requested_at: at + 5,
          account_id: accountA,
        })),
      );
      const endpoint = await t.handle.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpoints.won).executeTakeFirstOrThrow();
      assert.equal(endpoint.failing_since, null);
      // A delivery that is gone (its endpoint deleted meanwhile) is skipped, and the batch with it is written.
      await t.handle.db.deleteFrom('webhook_deliveries').where('id', '=', made[39].id).execute();
      await record(made[39], 0);
      assert.equal((await deliveriesOf([made[39].event_id])).length, 0);
    });
  });
}

describe("the dispatcher's batches on SQLite", () => {
  test('batches of 1 and of 60 run the same statements: none is prepared again for another size', async () => {
    // A database of its own: its connection has prepared nothing yet.
    const t = await createTestDatabase('sqlite');
    const accountId = (await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Texts' })).account.id;
    await t.handle.db
      .insertInto('webhook_endpoints')
      .values(endpointRow({ accountId, name: 'texts', url: 'https://texts.example/hook', eventTypes: ['deal.won'], secretKey: randomBytes(32) }))
      .execute();
    let clock = Date.now();
    const now = () => ++clock;
    const raw = t.handle.sqlite!.raw;
    // The SQL texts SQLite prepares while the dispatcher's functions run (not the test's own queries).
    const prepared: string[] = [];
    let watching = false;
    const watched = async <T>(run: () => Promise<T>): Promise<T> => {
      watching = true;
      try {
        return await run();
      } finally {
        watching = false;
      }
    };
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      if (watching) prepared.push(text);
      return prepare(text);
    }) as typeof raw.prepare;
    try {
      const round = async (n: number) => {
        const ids = await emitEvents(
          t.handle.db,
          Array.from({ length: n }, () => [accountId, 'deal.won'] as [number, string]),
          now(),
        );
        const at = now();
        const { claimed } = await watched(() => fanOut(t.handle.db, at, 500, { lockedUntil: at + 60_000, room: 1, perEndpoint: 10, held: new Map() }));
        const rest = await watched(() => claimDue(t.handle.db, now(), 30_000, { room: 100, perEndpoint: 100, inflight: new Map() }));
        assert.equal(claimed.length + rest.length, n);
        const queue = new RecordQueue(t.handle.db);
        await watched(() =>
          Promise.all(
            [...claimed, ...rest].map((d) =>
              queue.add(
                {
                  deliveryId: d.id,
                  accountId: d.account_id,
                  endpointId: d.endpoint_id,
                  trigger: 'scheduled',
                  statusCode: 204,
                  error: null,
                  responseBody: null,
                  durationMs: 1,
                  requestedAt: at,
                  previousAttempts: d.attempts,
                },
                (attemptNumber) => ({ status: 'sent', attemptNumber, nextAttemptAt: null, disabledReason: null }),
              ),
            ),
          ),
        );
        const sent = await t.handle.db.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', ids).where('status', '=', 'sent').execute();
        assert.equal(sent.length, n);
      };
      await round(1);
      await round(2);
      const texts = new Set(prepared);
      assert.ok(texts.size >= 8, [...texts].join('\n'));
      await round(60);
      await round(17);
      assert.deepEqual(
        prepared.filter((text) => !texts.has(text)),
        [],
      );
    } finally {
      raw.prepare = prepare;
      await t.drop();
    }
  });
});
