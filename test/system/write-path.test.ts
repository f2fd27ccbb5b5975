import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FixedClock } from '../../src/lib/clock.ts';
import { createWrite, type IdempotencyClaim } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createDeal } from '../../src/modules/deals/deals.service.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { OUTBOX_CHANNEL } from '../../src/modules/events/outbox.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// The write path without HTTP: a service called by the CLI, a script or a test keeps every guarantee.
for (const engine of engines()) {
  describe(`the write path, called outside a request [${engine}]`, () => {
    let t: TestDatabase;
    /** A second connection pool, as another process would have: it sees only committed data. */
    let observer: DatabaseHandle;
    let accountId: number;
    let orgId: number;
    const clock = new FixedClock('2026-11-24T09:30:00.000Z');
    before(async () => {
      t = await createTestDatabase(engine);
      observer = engine === 'postgres' ? openDatabase(t.url, { poolSize: 1 }) : t.handle;
      ({
        account: { id: accountId },
      } = await createAccount({ db: t.handle.db, clock }, { name: 'Outside' }));
      ({ id: orgId } = await t.handle.db
        .insertInto('orgs')
        .values({ account_id: accountId, name: 'O', name_lc: 'o', domain: null, created_at: 1, updated_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow());
    });
    after(async () => {
      if (observer !== t.handle) await observer.close();
      await t.drop();
    });

    /** A write whose dispatcher wake-up records which events another connection could see at that moment. */
    const writeWatched = () => {
      const seenAtWake: Promise<string[]>[] = [];
      const write = createWrite({
        db: t.handle.db,
        clock,
        wakeDispatcher: () => {
          seenAtWake.push(outboxOf(observer.db, accountId).then((events) => events.map((e) => e.payload.id as string)));
        },
      });
      return { write, seenAtWake };
    };

    test('the change and its events commit together, stamped by the injected clock; the dispatcher is woken after the commit', async () => {
      const { write, seenAtWake } = writeWatched();
      const before = (await outboxOf(t.handle.db, accountId)).length;
      const deal = await createDeal({ write }, { accountId, userId: null }, { org_id: orgId, title: 'Offline', status: 'won' });
      assert.equal(deal.created_at, '2026-11-24T09:30:00.000Z');
      assert.equal(deal.closed_at, '2026-11-24T09:30:00.000Z');
      const events = (await outboxOf(t.handle.db, accountId)).slice(before);
      assert.deepEqual(
        events.map((e) => [e.event_type, e.payload.timestamp]),
        [
          ['deal.created', '2026-11-24T09:30:00.000Z'],
          ['deal.won', '2026-11-24T09:30:00.000Z'],
        ],
      );
      assert.equal(seenAtWake.length, 1, 'one wake-up per write');
      const seen = await seenAtWake[0];
      for (const e of events) assert.ok(seen.includes(e.payload.id as string), 'committed before the wake-up');
    });

    test('a change that fails leaves nothing and wakes nobody', async () => {
      const { write, seenAtWake } = writeWatched();
      const counts = await tableCounts(t.handle.db);
      await assert.rejects(() => createDeal({ write }, { accountId, userId: null }, { org_id: 987_654_321, title: 'Nowhere' }), /987654321/);
      await assert.rejects(
        () =>
          write(null, async (w) => {
            await w.emit({ accountId, orgId, type: 'deal.won', entity: { deal_id: 1, deal: { id: 1, title: 't', status: 'won' } } as never });
            throw new Error('after the event');
          }),
        /after the event/,
      );
      assert.deepEqual(await tableCounts(t.handle.db), counts);
      assert.equal(seenAtWake.length, 0);
    });

    test('a claim stores the answer in the same transaction, and only once it commits is it the one sent', async () => {
      const { write } = writeWatched();
      const claim: IdempotencyClaim = {
        accountId,
        key: 'outside-1',
        fingerprint: 'f',
        bytesFingerprint: null,
        expiresAt: clock.now() + 60_000,
        respond: (result) => ({ status: 201, body: JSON.stringify(result), location: null }),
        seal: (body) => body,
        stored: null,
      };
      await assert.rejects(() =>
        write(claim, async () => {
          throw new Error('rolled back');
        }),
      );
      assert.equal(claim.stored, null);
      assert.equal(await t.handle.db.selectFrom('idempotency_keys').select('id').where('key', '=', 'outside-1').executeTakeFirst(), undefined);
      const result = await write(claim, async () => ({ done: true }));
      assert.deepEqual(claim.stored, { status: 201, body: '{"done":true}', location: null });
      const row = await observer.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'outside-1').executeTakeFirstOrThrow();
      assert.deepEqual([row.state, row.response_status, row.response_body, Number(row.created_at)], ['done', 201, JSON.stringify(result), clock.now()]);
      // The key now answers for itself: another write with it is refused, nothing runs.
      let ran = false;
      await assert.rejects(() => write(claim, async () => (ran = true)), /in progress/);
      assert.equal(ran, false);
    });

    test('other processes are signalled (NOTIFY) once an event commits, never for a rolled-back one (PostgreSQL)', {
      skip: engine !== 'postgres' && 'SQLite has no cross-process signal: dispatchers poll',
    }, async () => {
      const listener = await t.handle.pool!.connect();
      const heard: string[] = [];
      const onNotification = (m: { channel: string }) => heard.push(m.channel);
      listener.on('notification', onNotification);
      try {
        await listener.query(`listen ${OUTBOX_CHANNEL}`);
        const { write } = writeWatched();
        const settle = async () => {
          // A round trip on the listening connection delivers any notification already sent to it.
          await listener.query('select 1');
        };
        await assert.rejects(
          () =>
            write(null, async (w) => {
              await w.emit({ accountId, orgId, type: 'deal.won', entity: { deal_id: 1, deal: { id: 1, title: 't', status: 'won' } } as never });
              await settle();
              assert.deepEqual(heard, [], 'nothing before the commit');
              throw new Error('rolled back');
            }),
          /rolled back/,
        );
        await settle();
        assert.deepEqual(heard, [], 'nothing for a rolled-back event');
        await write(null, async (w) => {
          await w.emit({ accountId, orgId, type: 'deal.won', entity: { deal_id: 1, deal: { id: 1, title: 't', status: 'won' } } as never });
          await w.emit({ accountId, orgId, type: 'deal.lost', entity: { deal_id: 1, deal: { id: 1, title: 't', status: 'lost' } } as never });
        });
        for (let i = 0; i < 50 && heard.length === 0; i++) await settle();
        assert.deepEqual(heard, [OUTBOX_CHANNEL], 'one signal for the commit of two events');
      } finally {
        listener.off('notification', onNotification);
        await listener.query(`unlisten ${OUTBOX_CHANNEL}`).catch(() => undefined);
        listener.release();
      }
    });

    test('writers of one account, even of one deal, wait for nothing before they commit: counters and the deal last_activity_at move at the commit (PostgreSQL)', {
      skip: engine !== 'postgres' && 'one writer at a time on SQLite',
    }, async () => {
      const pool = t.handle.pool!;
      const deal = await createDeal({ write: writeWatched().write }, { accountId, userId: null }, { org_id: orgId, title: 'Busy' });
      const day = Math.floor(clock.now() / 86_400_000);
      const kindCount = async () =>
        Number(
          (
            await observer.db
              .selectFrom('analytics_daily')
              .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
              .where('account_id', '=', accountId)
              .where('fact', '=', 'activity_kind')
              .where('day', '=', day)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await kindCount();
      const lastActivity = async () =>
        Number((await observer.db.selectFrom('deals').select('last_activity_at').where('id', '=', deal.id).executeTakeFirstOrThrow()).last_activity_at);
      const created = clock.now();
      const first = await pool.connect();
      const second = await pool.connect();
      const insert = `insert into deal_activities (account_id, deal_id, org_id, event_type, message, source_app, created_at)
        values ($1, $2, $3, 'call', 'm', 'test', $4)`;
      try {
        await first.query('begin');
        await first.query(insert, [accountId, deal.id, orgId, created + 2000]);
        // The first writer holds its transaction open. Before counters and the deal's time moved to the
        // commit, the second insert waited for the first writer's row in analytics_daily (today's
        // calls), and then for the deal's row, until the first writer ended.
        await second.query('begin');
        // The check: a second insert that waited for the first writer's locks would fail on this time-out.
        await second.query(`set local lock_timeout = '10s'`);
        await second.query(insert, [accountId, deal.id, orgId, created + 1000]);
        assert.equal(await kindCount(), before, 'nothing counted before a commit');
        assert.equal(await lastActivity(), created);
        await second.query('commit');
        assert.equal(await kindCount(), before + 1, 'counted at its commit');
        assert.equal(await lastActivity(), created + 1000);
        await first.query('commit');
        assert.equal(await kindCount(), before + 2, 'both counted, exactly');
        assert.equal(await lastActivity(), created + 2000);
      } finally {
        await first.query('rollback').catch(() => undefined);
        await second.query('rollback').catch(() => undefined);
        first.release();
        second.release();
      }
    });
  });
}
