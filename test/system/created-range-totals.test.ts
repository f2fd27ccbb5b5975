import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/database.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { Random } from '../../src/demo/random.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { countDeals } from '../../src/modules/deals/deals.repository.ts';
import { createWrite } from '../../src/lib/write.ts';
import { createDeal } from '../../src/modules/deals/deals.service.ts';
import { countTickets } from '../../src/modules/support/support.repository.ts';
import { seedAccount } from '../../src/seed/seed.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

const DAY = 86_400_000;

/** The filter's meaning, counted row by row: what the rollup path must equal. */
async function scan(db: Db, table: 'deals' | 'tickets', accountId: number, from: number | null, to: number | null): Promise<number> {
  let q = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (from !== null) q = q.where('created_at', '>=', from);
  if (to !== null) q = q.where('created_at', '<=', to);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

// A creation-time range alone is counted from the daily rollup for its whole days and through the
// index for the rest (lib/titled-records.ts, countTitledCreated): it must equal a plain count for
// any range, at day boundaries to the millisecond, and the moment a write commits.
for (const engine of engines()) {
  describe(`totals of a creation-time range [${engine}]`, () => {
    let t: TestDatabase;
    const clock = new FixedClock('2026-11-24T09:30:00.000Z');
    let accountId: number;
    let other: number;
    before(async () => {
      t = await createTestDatabase(engine);
      const deps = { db: t.handle.db, clock };
      accountId = (await createAccount(deps, { name: 'Ranges' })).account.id;
      other = (await createAccount(deps, { name: 'Other' })).account.id;
      await seedAccount(t.handle, clock, { accountId, deals: 600, seed: 3 });
      await seedAccount(t.handle, clock, { accountId: other, deals: 300, seed: 4 });
    });
    after(() => t.drop());

    const count = (table: 'deals' | 'tickets', from: number | null, to: number | null) =>
      table === 'deals'
        ? countDeals(t.handle.db, accountId, { createdFrom: from, createdTo: to })
        : countTickets(t.handle.db, accountId, { createdFrom: from, createdTo: to });

    test('equals a plain count for random ranges, day edges to the millisecond, one-sided and empty ones', async () => {
      const rnd = new Random(11);
      const now = clock.now();
      const start = now - 2 * 365 * DAY;
      const edge = () => {
        const day = Math.floor((start + rnd.next() * (now - start)) / DAY) * DAY;
        return day + [0, -1, 1, DAY - 1, DAY, Math.floor(rnd.next() * DAY)][rnd.int(0, 5)];
      };
      const ranges: [number | null, number | null][] = [
        [null, null],
        [start, null],
        [null, now],
        [now + DAY, null],
        [null, start - DAY],
        [Math.floor(now / DAY) * DAY, Math.floor(now / DAY) * DAY + DAY - 1],
      ];
      for (let i = 0; i < 120; i++) {
        const a = edge();
        const b = rnd.chance(0.2) ? a + rnd.int(0, 3) * DAY + rnd.int(-1, 1) : edge();
        ranges.push(rnd.chance(0.1) ? [a, null] : rnd.chance(0.1) ? [null, b] : [a, b]);
      }
      for (const table of ['deals', 'tickets'] as const) {
        for (const [from, to] of ranges) {
          assert.equal(await count(table, from, to), await scan(t.handle.db, table, accountId, from, to), `${table} ${from}..${to}`);
        }
      }
      // Not a shortcut that hides an empty answer: the ranges found both many and few.
      const totals = await Promise.all(ranges.map(([from, to]) => count('deals', from, to)));
      assert.ok(totals.some((n) => n > 100) && totals.some((n) => n > 0 && n < 20) && totals.includes(0));
      // And the whole days do come from the rollup: a day's rollup row off by 5 shows in the total.
      const day = Math.floor(clock.now() / DAY) - 100;
      const where = { account_id: accountId, fact: 'deal_created_total', day, dim: 0 };
      await t.handle.db
        .insertInto('analytics_daily')
        .values({ ...where, n: 0 })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const shift = (by: number) =>
        t.handle.db
          .updateTable('analytics_daily')
          .set((eb) => ({ n: eb('n', '+', by) }))
          .where('account_id', '=', accountId)
          .where('fact', '=', 'deal_created_total')
          .where('day', '=', day)
          .where('dim', '=', 0)
          .execute();
      const exact = await count('deals', (day - 2) * DAY + 1, (day + 2) * DAY);
      await shift(5);
      try {
        assert.equal(await count('deals', (day - 2) * DAY + 1, (day + 2) * DAY), exact + 5);
      } finally {
        await shift(-5);
      }
    });

    test('exact the moment a write commits, at both ends of a day', async () => {
      const write = createWrite({ db: t.handle.db, clock, wakeDispatcher: () => {} });
      const org = await t.handle.db.selectFrom('orgs').select('id').where('account_id', '=', accountId).executeTakeFirstOrThrow();
      const day = Math.floor(clock.now() / DAY) - 40;
      const from = (day - 3) * DAY + 5;
      const to = (day + 3) * DAY - 7;
      const before = await count('deals', from, to);
      for (const at of [day * DAY, day * DAY - 1, (day - 3) * DAY + 5, (day + 3) * DAY - 7, (day + 3) * DAY - 6]) {
        clock.set(new Date(at).toISOString());
        await createDeal({ write }, { accountId, userId: null }, { org_id: Number(org.id), title: `At ${at}` });
      }
      assert.equal(await count('deals', from, to), before + 4, 'four inside, one a millisecond past the end');
      assert.equal(await count('deals', from, to), await scan(t.handle.db, 'deals', accountId, from, to));
    });
  });
}
