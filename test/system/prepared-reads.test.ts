import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FixedClock, iso } from '../../src/lib/clock.ts';
import { createWrite } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createDeal } from '../../src/modules/deals/deals.service.ts';
import { findDeal } from '../../src/modules/deals/deals.repository.ts';
import { findKey, findKeyNow, insertResponse } from '../../src/modules/idempotency/idempotency.repository.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// Prepared single-record reads (docs/design.md#prepared-queries): the same rows as the query builder, and on
// the pool never a change another transaction has not committed.
for (const engine of engines()) {
  describe(`prepared reads [${engine}]`, () => {
    let t: TestDatabase;
    let accountId: number;
    let dealId: number;
    const clock = new FixedClock('2026-11-24T09:30:00.000Z');
    before(async () => {
      t = await createTestDatabase(engine);
      ({
        account: { id: accountId },
      } = await createAccount({ db: t.handle.db, clock }, { name: 'Prepared' }));
      const { id: orgId } = await t.handle.db
        .insertInto('orgs')
        .values({ account_id: accountId, name: 'O', name_lc: 'o', domain: null, created_at: 1, updated_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const write = createWrite({ db: t.handle.db, clock, wakeDispatcher: () => {} });
      ({ id: dealId } = await createDeal({ write }, { accountId, userId: null }, { org_id: orgId, title: 'Prepared', value: '12.50', currency: 'EUR' }));
    });
    after(async () => {
      await t.drop();
    });

    test('a deal read on the pool and in a transaction is the row the query builder reads; another account reads nothing', async () => {
      const built = await t.handle.db.selectFrom('deals').selectAll().where('id', '=', dealId).executeTakeFirstOrThrow();
      assert.deepEqual({ ...(await findDeal(t.handle.db, accountId, dealId)) }, { ...built });
      const inTransaction = await t.handle.db.transaction().execute((trx) => findDeal(trx, accountId, dealId));
      assert.deepEqual({ ...inTransaction }, { ...built });
      assert.equal(await findDeal(t.handle.db, accountId + 1, dealId), undefined);
      assert.equal(await findDeal(t.handle.db, accountId, dealId + 1000), undefined);
    });

    test('many reads at once (every pooled connection, described once each) and a read the database refuses: the same rows, then the same rows again', async () => {
      const built = await t.handle.db.selectFrom('deals').selectAll().where('id', '=', dealId).executeTakeFirstOrThrow();
      const rows = await Promise.all(Array.from({ length: 40 }, (_, i) => findDeal(t.handle.db, accountId, i % 2 ? dealId : dealId + 1000)));
      for (const [i, row] of rows.entries()) assert.deepEqual(row === undefined ? undefined : { ...row }, i % 2 ? { ...built } : undefined);
      // An id past int8 (PostgreSQL refuses it; SQLite finds nothing): the failure is the query's, the pool goes on.
      await findDeal(t.handle.db, accountId, 2 ** 70).then(
        (row) => assert.equal(row, undefined),
        (err: unknown) => assert.equal(engine, 'postgres', String(err)),
      );
      const again = await Promise.all(Array.from({ length: 20 }, () => findDeal(t.handle.db, accountId, dealId)));
      for (const row of again) assert.deepEqual({ ...row }, { ...built });
    });

    test('a read on the pool while another transaction changes the deal never sees that change when it rolls back', async () => {
      let readDuring: Promise<unknown> | undefined;
      await assert.rejects(
        t.handle.db.transaction().execute(async (trx) => {
          await trx.updateTable('deals').set({ title: 'Uncommitted' }).where('id', '=', dealId).execute();
          readDuring = findDeal(t.handle.db, accountId, dealId);
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.equal(((await readDuring) as { title: string }).title, 'Prepared');
    });

    test('a read now (the idempotency record) gives the row the promised read gives, and is null where a read must wait', async () => {
      const key = `now-${engine}`;
      await insertResponse(t.handle.db, {
        account_id: accountId,
        key,
        request_hash: 'h',
        request_bytes_hash: null,
        response_status: 201,
        response_body: 'enc:v1:x',
        location: null,
        created_at: 1,
        expires_at: 2,
      });
      const row = await findKey(t.handle.db, accountId, key);
      assert.ok(row);
      const now = findKeyNow(t.handle.db, accountId, key);
      if (engine === 'sqlite') {
        assert.deepEqual(now && { ...now.row }, { ...row });
        assert.deepEqual(findKeyNow(t.handle.db, accountId, `${key}-none`), { row: undefined });
        assert.deepEqual(findKeyNow(t.handle.db, accountId + 1, key), { row: undefined });
      } else assert.equal(now, null, 'PostgreSQL reads through the pool: always a promise');
      // While a transaction holds the connection (SQLite) or the read is the transaction's own, nothing is read now.
      await t.handle.db.transaction().execute(async (trx) => {
        assert.equal(findKeyNow(t.handle.db, accountId, key), null);
        assert.equal(findKeyNow(trx, accountId, key), null);
        assert.deepEqual({ ...(await findKey(trx, accountId, key)) }, { ...row });
      });
    });
  });
}

describe('ISO timestamps', () => {
  test('iso writes what Date#toISOString writes, inside and outside the years 0000–9999', () => {
    const samples = [
      0, -1, 1, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000,
      8.64e15, -8.64e15,
    ];
    for (let day = -800_000; day < 3_000_000; day += 997) samples.push(day * 86_400_000 + ((day * 7919) % 86_400_000));
    for (const ms of samples) assert.equal(iso(ms), new Date(ms).toISOString(), String(ms));
    assert.equal(iso(null), null);
    assert.throws(() => iso(Number.NaN), RangeError);
  });
});
