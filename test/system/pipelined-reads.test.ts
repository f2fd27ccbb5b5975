import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { createWrite } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createDeal } from '../../src/modules/deals/deals.service.ts';
import { findDeal, type DealRow } from '../../src/modules/deals/deals.repository.ts';
import { findKey, insertResponse } from '../../src/modules/idempotency/idempotency.repository.ts';
import { findContact } from '../../src/modules/contacts/contacts.repository.ts';
import { findOrg } from '../../src/modules/orgs/orgs.repository.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { countSocketWrites } from '../helpers/socket-writes.ts';

// On PostgreSQL the prepared reads asked for in one event-loop turn go to the server together: one
// pooled connection, one write, one Sync (src/db/pg-prepared.ts, docs/design.md#prepared-queries).
// Each read keeps its own answer; a read the server refuses fails alone, and the reads the server
// skipped after it are asked again. Each test opens a handle of its own, so that its exchanges
// (pool checkouts) and socket writes are the test's alone, and no statement is parsed there yet.

/** An answered idempotency record of `accountId` under `key`. */
const storedRow = (accountId: number, key: string, body: string) => ({
  account_id: accountId,
  key,
  request_hash: 'h',
  request_bytes_hash: null,
  response_status: 201,
  response_body: body,
  location: null,
  created_at: 1,
  expires_at: 2,
});

interface Fixture {
  accountId: number;
  orgId: number;
  contactId: number;
  dealId: number;
  key: string;
}

describe('prepared reads of one turn in one exchange (PostgreSQL)', { skip: !engines().includes('postgres') }, () => {
  let t: TestDatabase;
  const accounts: Fixture[] = [];
  const built = new Map<number, DealRow>();
  const clock = new FixedClock('2026-11-28T09:30:00.000Z');

  before(async () => {
    t = await createTestDatabase('postgres');
    const write = createWrite({ db: t.handle.db, clock, wakeDispatcher: () => {} });
    for (const name of ['Pipelined A', 'Pipelined B']) {
      const { account } = await createAccount({ db: t.handle.db, clock }, { name });
      const { id: orgId } = await t.handle.db
        .insertInto('orgs')
        .values({ account_id: account.id, name: 'O', name_lc: 'o', domain: null, created_at: 1, updated_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: dealId } = await createDeal(
        { write },
        { accountId: account.id, userId: null },
        { org_id: orgId, title: name, value: '1.00', currency: 'EUR' },
      );
      const key = `key-${account.id}`;
      await insertResponse(t.handle.db, storedRow(account.id, key, `body of ${account.id}`));
      const { id: contactId } = await t.handle.db
        .insertInto('contacts')
        .values({
          account_id: account.id,
          org_id: orgId,
          name: `C of ${name}`,
          name_lc: `c of ${name}`.toLowerCase(),
          email: null,
          email_lc: null,
          phone: null,
          title: null,
          created_at: 1,
          updated_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      accounts.push({ accountId: account.id, orgId, contactId: Number(contactId), dealId, key });
      built.set(dealId, await t.handle.db.selectFrom('deals').selectAll().where('id', '=', dealId).executeTakeFirstOrThrow());
    }
  });
  after(async () => {
    await t.drop();
  });

  interface Counted {
    handle: DatabaseHandle;
    exchanges: () => number;
    writes: () => number;
  }

  /** A handle of its own on the test's database, with its pool checkouts (one per exchange) and socket writes counted; closed after `fn`. */
  async function withCounted(poolSize: number, fn: (c: Counted) => Promise<void>): Promise<void> {
    const c = counted(poolSize);
    try {
      await fn(c);
    } finally {
      await c.handle.close();
    }
  }

  function counted(poolSize: number): Counted {
    const handle = openDatabase(t.url, { poolSize });
    let exchanges = 0;
    const pool = handle.pool!;
    const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
      exchanges++;
      return query(...a);
    };
    const writes = countSocketWrites(pool);
    return { handle, exchanges: () => exchanges, writes };
  }

  const plain = (row: object | undefined) => (row === undefined ? undefined : { ...row });

  test('reads of two accounts and two statements asked in one turn: one exchange, one write, each read its own rows', async () => {
    await withCounted(4, async ({ handle, exchanges, writes }) => {
      // A first read makes the pool's connection (its start-up writes are not the exchange's).
      await findDeal(handle.db, accounts[0].accountId, accounts[0].dealId);
      const before = { exchanges: exchanges(), writes: writes() };
      const [a, b] = accounts;
      // 21 reads: 12 deals of their own account, 3 of the other's, 3 pairs of idempotency records (under 32: one exchange).
      const asked = Array.from({ length: 18 }, (_, i) => {
        const [mine, other] = i % 2 ? [a, b] : [b, a];
        switch (i % 6) {
          case 0:
          case 1:
          case 2:
          case 3:
            return findDeal(handle.db, mine.accountId, mine.dealId).then((row) => assert.deepEqual(plain(row), plain(built.get(mine.dealId))));
          case 4:
            // Another account's deal is not there, as anywhere.
            return findDeal(handle.db, mine.accountId, other.dealId).then((row) => assert.equal(row, undefined));
          default:
            return Promise.all([findKey(handle.db, mine.accountId, mine.key), findKey(handle.db, mine.accountId, other.key)]).then(([own, theirs]) => {
              assert.equal(own?.response_body, `body of ${mine.accountId}`);
              assert.equal(theirs, undefined);
            });
        }
      });
      await Promise.all(asked);
      assert.equal(exchanges() - before.exchanges, 1, 'one exchange for the turn');
      assert.equal(writes() - before.writes, 1, 'one socket write for the turn');
    });
  });

  test("an org, a contact and a deal by id in one turn: one exchange; another account's ids are not there", async () => {
    await withCounted(2, async ({ handle, exchanges }) => {
      const [a, b] = accounts;
      const [org, contact, deal, otherOrg, otherContact] = await Promise.all([
        findOrg(handle.db, a.accountId, a.orgId),
        findContact(handle.db, a.accountId, a.contactId),
        findDeal(handle.db, a.accountId, a.dealId),
        findOrg(handle.db, a.accountId, b.orgId),
        findContact(handle.db, a.accountId, b.contactId),
      ]);
      assert.deepEqual(plain(org), plain(await t.handle.db.selectFrom('orgs').selectAll().where('id', '=', a.orgId).executeTakeFirstOrThrow()));
      assert.deepEqual(plain(contact), plain(await t.handle.db.selectFrom('contacts').selectAll().where('id', '=', a.contactId).executeTakeFirstOrThrow()));
      assert.deepEqual(plain(deal), plain(built.get(a.dealId)));
      assert.equal(otherOrg, undefined);
      assert.equal(otherContact, undefined);
      assert.equal(exchanges(), 1);
    });
  });

  test('more reads in one turn than an exchange takes (32): several exchanges, every answer right', async () => {
    await withCounted(4, async ({ handle, exchanges }) => {
      const [a] = accounts;
      const rows = await Promise.all(Array.from({ length: 150 }, (_, i) => findDeal(handle.db, a.accountId, i % 3 ? a.dealId : a.dealId + 10_000)));
      for (const [i, row] of rows.entries()) assert.deepEqual(plain(row), i % 3 ? plain(built.get(a.dealId)) : undefined);
      assert.equal(exchanges(), 5);
    });
  });

  test('a write on the pool asked in the same turn goes alone: a read refused beside it does not undo it', async () => {
    await withCounted(2, async ({ handle, exchanges }) => {
      const [a] = accounts;
      const key = `alone-${Date.now()}`;
      const stored = insertResponse(handle.db, storedRow(a.accountId, key, 'stored alone'));
      const read = findDeal(handle.db, a.accountId, a.dealId);
      const refused = assert.rejects(findDeal(handle.db, a.accountId, 2 ** 70));
      assert.equal(await stored, true);
      await refused;
      assert.deepEqual(plain(await read), plain(built.get(a.dealId)));
      assert.equal(exchanges(), 2, 'the write, then the reads');
      assert.equal((await findKey(t.handle.db, a.accountId, key))?.response_body, 'stored alone');
    });
  });

  test('a read the server refuses fails alone: the reads before it keep their rows, the ones it skipped are asked again', async () => {
    // One connection, nothing parsed on it: the deal read's statement is parsed in the first
    // exchange, and the idempotency read's Parse, sent after the refused read, is skipped by the server.
    await withCounted(1, async ({ handle, exchanges }) => {
      const [a, b] = accounts;
      const first = findDeal(handle.db, a.accountId, a.dealId);
      // An id past int8: the server refuses to bind it (22003), the driver sends it as text.
      const refused = assert.rejects(findDeal(handle.db, a.accountId, 2 ** 70), (err: Error) => {
        assert.doesNotMatch(String(err), /prepared statement .* does not exist/);
        return true;
      });
      const afterIt = findKey(handle.db, b.accountId, b.key);
      const last = findDeal(handle.db, b.accountId, b.dealId);
      assert.deepEqual(plain(await first), plain(built.get(a.dealId)));
      await refused;
      assert.equal((await afterIt)?.response_body, `body of ${b.accountId}`);
      assert.deepEqual(plain(await last), plain(built.get(b.dealId)));
      assert.equal(exchanges(), 2, 'the skipped reads went again in one more exchange');
      // The pool goes on: the same reads again, in one exchange.
      const again = await Promise.all([findDeal(handle.db, a.accountId, a.dealId), findKey(handle.db, b.accountId, b.key)]);
      assert.deepEqual(plain(again[0]), plain(built.get(a.dealId)));
      assert.equal(again[1]?.response_body, `body of ${b.accountId}`);
      assert.equal(exchanges(), 3);
    });
  });

  test('a value that cannot be bound fails its read at once; the exchange carries the others', async () => {
    await withCounted(2, async ({ handle, exchanges }) => {
      const [a] = accounts;
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const results = await Promise.allSettled([
        findDeal(handle.db, a.accountId, a.dealId),
        findDeal(handle.db, a.accountId, cyclic as unknown as number),
        findDeal(handle.db, a.accountId, a.dealId),
      ]);
      assert.equal(results[0].status, 'fulfilled');
      assert.deepEqual(plain((results[0] as PromiseFulfilledResult<DealRow | undefined>).value), plain(built.get(a.dealId)));
      assert.equal(results[1].status, 'rejected');
      assert.equal(results[2].status, 'fulfilled');
      assert.deepEqual(plain((results[2] as PromiseFulfilledResult<DealRow | undefined>).value), plain(built.get(a.dealId)));
      assert.equal(exchanges(), 1);
    });
  });

  test('reads asked in different turns are not held for each other: each turn its own exchange', async () => {
    await withCounted(2, async ({ handle, exchanges }) => {
      const [a] = accounts;
      for (let i = 0; i < 3; i++) assert.deepEqual(plain(await findDeal(handle.db, a.accountId, a.dealId)), plain(built.get(a.dealId)));
      assert.equal(exchanges(), 3);
    });
  });
});
