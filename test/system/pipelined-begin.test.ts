import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle, type Executor } from '../../src/db/database.ts';
import { COMMIT_MARKER } from '../../src/db/pg-statement-names.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createWrite, type IdempotencyClaim } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { insertResponse } from '../../src/modules/idempotency/idempotency.repository.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { countSocketWrites } from '../helpers/socket-writes.ts';

// On PostgreSQL a transaction's `begin` is sent with its first statement, and its `commit` with a
// statement marked as its last, each in one write and one round trip (src/db/pg-statement-names.ts,
// docs/design.md#named-statements-on-postgresql). The handle has one connection; the writes its
// socket makes are counted.

describe('begin sent with the first statement, commit with the last (PostgreSQL)', { skip: !engines().includes('postgres') }, () => {
  let t: TestDatabase;
  let one: DatabaseHandle;
  let writes: () => number;

  before(async () => {
    t = await createTestDatabase('postgres');
    one = openDatabase(t.url, { poolSize: 1 });
    await sql`create table pipelined (id int primary key)`.execute(one.db);
    await sql`create table deferred (id int, constraint deferred_once unique (id) deferrable initially deferred)`.execute(one.db);
    writes = countSocketWrites(one.pool!);
    // The connection runs `begin` and `commit` once as named statements; later transactions send them along.
    await one.db.transaction().execute(async (trx) => sql`select ${1}::int as one`.execute(trx));
  });
  after(async () => {
    await one?.close();
    await t?.drop();
  });

  const txid = (db: Executor, n: number) => sql<{ txid: string }>`select txid_current()::text as txid, ${n}::int as n`.execute(db).then((r) => r.rows[0].txid);

  test('a transaction of two statements makes three writes: begin with the first statement, the second, the commit', async () => {
    const before = writes();
    const ids = await one.db.transaction().execute(async (trx) => [await txid(trx, 1), await txid(trx, 2)]);
    assert.equal(ids[0], ids[1], 'both statements ran in one transaction');
    assert.equal(writes() - before, 3, 'begin + first statement, second statement, commit');
    const outside = await txid(one.db, 3);
    assert.notEqual(outside, ids[0]);
  });

  test('a failure in a later statement rolls back what the first one wrote', async () => {
    await assert.rejects(() =>
      one.db.transaction().execute(async (trx) => {
        await sql`insert into pipelined (id) values (${1})`.execute(trx);
        await sql`insert into pipelined (id) values (${1})`.execute(trx);
      }),
    );
    assert.equal((await sql<{ n: string }>`select count(*)::text as n from pipelined`.execute(one.db)).rows[0].n, '0');
  });

  test('a failing first statement ends the transaction and leaves the connection ready for the next one', async () => {
    await assert.rejects(() => one.db.transaction().execute(async (trx) => sql`select 1 / ${0}::int as x`.execute(trx)), /division by zero/);
    await one.db.transaction().execute(async (trx) => sql`insert into pipelined (id) values (${2})`.execute(trx));
    const rows = (await sql<{ id: number }>`select id from pipelined`.execute(one.db)).rows;
    assert.deepEqual(rows, [{ id: 2 }]);
    await sql`delete from pipelined`.execute(one.db);
  });

  test('a transaction that runs nothing sends nothing', async () => {
    const before = writes();
    await one.db.transaction().execute(async () => undefined);
    await assert.rejects(() =>
      one.db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
    );
    assert.equal(writes() - before, 0);
    assert.equal((await sql<{ n: number }>`select ${5}::int as n`.execute(one.db)).rows[0].n, 5);
  });

  test('a first statement without values gets its begin as a query of its own, and runs inside the transaction', async () => {
    const before = writes();
    const ids = await one.db
      .transaction()
      .execute(async (trx) => [(await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx)).rows[0].txid, await txid(trx, 4)]);
    assert.equal(ids[0], ids[1]);
    assert.equal(writes() - before, 4, 'begin, the first statement, the second, commit');
  });

  test('a rolled-back transaction after its first statement leaves nothing', async () => {
    await assert.rejects(() =>
      one.db.transaction().execute(async (trx) => {
        await sql`insert into pipelined (id) values (${3})`.execute(trx);
        throw new Error('after the insert');
      }),
    );
    assert.equal((await sql<{ n: string }>`select count(*)::text as n from pipelined`.execute(one.db)).rows[0].n, '0');
  });

  const count = async (table: string) => (await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)}`.execute(one.db)).rows[0].n;

  test('a last statement brings the commit: two writes for begin, two statements and commit, and another connection sees the rows at once', async () => {
    const before = writes();
    await one.db.transaction().execute(async (trx) => {
      await sql`insert into pipelined (id) values (${10})`.execute(trx);
      await sql`insert into pipelined (id) values (${11}) ${sql.raw(COMMIT_MARKER)}`.execute(trx);
    });
    assert.equal(writes() - before, 2, 'begin + first statement, last statement + commit');
    assert.equal(await count('pipelined'), '2');
    assert.equal((await sql<{ n: string }>`select count(*)::text as n from pipelined`.execute(t.handle.db)).rows[0].n, '2');
    await sql`delete from pipelined`.execute(one.db);
  });

  test('a last statement that fails commits nothing, and the connection serves the next transaction', async () => {
    await assert.rejects(() =>
      one.db.transaction().execute(async (trx) => {
        await sql`insert into pipelined (id) values (${20})`.execute(trx);
        await sql`insert into pipelined (id) values (${20}) ${sql.raw(COMMIT_MARKER)}`.execute(trx);
      }),
    );
    assert.equal(await count('pipelined'), '0');
    await one.db.transaction().execute(async (trx) => sql`insert into pipelined (id) values (${21}) ${sql.raw(COMMIT_MARKER)}`.execute(trx));
    assert.equal(await count('pipelined'), '1');
    await sql`delete from pipelined`.execute(one.db);
  });

  test('a commit that fails (a deferred constraint) fails the last statement, and nothing is kept', async () => {
    await assert.rejects(
      () =>
        one.db.transaction().execute(async (trx) => {
          await sql`insert into deferred (id) values (${1})`.execute(trx);
          await sql`insert into deferred (id) values (${1}) ${sql.raw(COMMIT_MARKER)}`.execute(trx);
        }),
      /unique/,
    );
    assert.equal(await count('deferred'), '0');
    assert.equal((await sql<{ n: number }>`select ${6}::int as n`.execute(one.db)).rows[0].n, 6);
  });

  test('a last statement whose value cannot be sent is not run, and the commit is not sent', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await assert.rejects(() =>
      one.db.transaction().execute(async (trx) => {
        await sql`insert into pipelined (id) values (${30})`.execute(trx);
        await sql`select ${circular}::jsonb as j ${sql.raw(COMMIT_MARKER)}`.execute(trx);
      }),
    );
    assert.equal(await count('pipelined'), '0');
  });

  test('nothing may run after the last statement: it is refused, and what was written stays committed', async () => {
    await assert.rejects(
      () =>
        one.db.transaction().execute(async (trx) => {
          await sql`insert into pipelined (id) values (${40}) ${sql.raw(COMMIT_MARKER)}`.execute(trx);
          await sql`insert into pipelined (id) values (${41})`.execute(trx);
        }),
      /committed with its last statement/,
    );
    assert.deepEqual((await sql<{ id: number }>`select id from pipelined`.execute(one.db)).rows, [{ id: 40 }]);
    await sql`delete from pipelined`.execute(one.db);
  });

  /** The write path (lib/write.ts) on the one connection, a new account, and a claim of `key` in it. */
  async function keyedWrite(name: string, key: string) {
    const { account } = await createAccount({ db: one.db, clock: systemClock }, { name });
    const write = createWrite({ db: one.db, clock: systemClock, wakeDispatcher: () => {} });
    const claim: IdempotencyClaim = {
      accountId: account.id,
      key,
      fingerprint: 'f',
      bytesFingerprint: null,
      expiresAt: Date.now() + 60_000,
      respond: (result) => ({ status: 201, body: JSON.stringify(result), location: null }),
      seal: (body) => body,
      stored: null,
    };
    return { account, write, claim };
  }

  test('a write with an Idempotency-Key stores its response with the commit; a key stored meanwhile rolls the change back', async () => {
    const { account, write, claim } = await keyedWrite('Pipelined', 'pipelined-1');
    const before = writes();
    await write(claim, async ({ trx }) => {
      await sql`insert into pipelined (id) values (${50})`.execute(trx);
      return { id: 50 };
    });
    assert.equal(writes() - before, 3, 'begin + the key held and read, the change, the response + commit');
    assert.deepEqual(claim.stored, { status: 201, body: '{"id":50}', location: null });
    // The same key again, as a duplicate that found no record before its transaction: refused at the
    // store, and its change rolled back with it.
    const record = {
      account_id: account.id,
      key: 'pipelined-1',
      request_hash: 'f',
      request_bytes_hash: null,
      response_status: 201,
      response_body: '{}',
      location: null,
      created_at: 1,
      expires_at: Date.now() + 60_000,
    };
    await one.db.transaction().execute(async (trx) => {
      const stored = await insertResponse(trx, record, { last: false });
      assert.equal(stored, false);
    });
    await assert.rejects(
      () =>
        one.db.transaction().execute(async (trx) => {
          await sql`insert into pipelined (id) values (${51})`.execute(trx);
          const stored = await insertResponse(trx, record, { last: true });
          assert.equal(stored, false);
          throw new Error('refused');
        }),
      /refused/,
    );
    assert.deepEqual((await sql<{ id: number }>`select id from pipelined`.execute(one.db)).rows, [{ id: 50 }]);
    await sql`delete from pipelined`.execute(one.db);
  });

  test('a duplicate whose key is stored while its change runs is refused at the store: 409 in use, its change and events rolled back', async () => {
    const { account, write, claim } = await keyedWrite('Raced', 'raced-1');
    const events = async () => (await sql<{ n: string }>`select count(*)::text as n from events where account_id = ${account.id}`.execute(one.db)).rows[0].n;
    await assert.rejects(
      () =>
        write(claim, async ({ trx, emit }) => {
          await sql`insert into pipelined (id) values (${60})`.execute(trx);
          emit({ accountId: account.id, orgId: 1, type: 'deal.won', entity: { deal_id: 1, deal: { id: 1, title: 't', status: 'won' } } as never });
          // The first request with the key commits its answer now, from another connection.
          await sql`insert into idempotency_keys (account_id, key, request_hash, state, response_status, response_body, created_at, committed_at, expires_at)
            values (${account.id}, ${'raced-1'}, ${'f'}, ${'done'}, ${201}, ${'{}'}, ${1}, ${1}, ${Date.now() + 60_000})`.execute(t.handle.db);
          return { id: 60 };
        }),
      (err: { code?: string }) => err.code === 'idempotency_key_in_use',
    );
    assert.equal(claim.stored, null);
    assert.equal(await count('pipelined'), '0');
    assert.equal(await events(), '0');
    assert.equal((await sql<{ n: number }>`select ${7}::int as n`.execute(one.db)).rows[0].n, 7);
  });

  test('a first or last statement whose name went stale fails its transaction once, then runs unnamed on that connection', async () => {
    await sql`create table stale_first (id int primary key, v int)`.execute(one.db);
    const first = (trx: Executor) => sql<{ v: unknown }>`select v from stale_first where id = ${1}`.execute(trx);
    const lastOne = (trx: Executor) => sql<{ v: unknown }>`select v from stale_first where id = ${1} ${sql.raw(COMMIT_MARKER)}`.execute(trx);
    await sql`insert into stale_first values (1, 5)`.execute(one.db);
    // Named after three runs, then planned and kept on this connection.
    for (let i = 0; i < 6; i++) {
      await one.db.transaction().execute(async (trx) => {
        await first(trx);
        await lastOne(trx);
      });
    }
    const named = (await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like ${'%stale_first%'}`.execute(one.db)).rows;
    assert.equal(named.length, 2, JSON.stringify(named));
    await sql`alter table stale_first alter column v type text`.execute(t.handle.db);
    await assert.rejects(() => one.db.transaction().execute(async (trx) => first(trx)), /cached plan must not change result type/);
    assert.deepEqual((await one.db.transaction().execute(async (trx) => first(trx))).rows, [{ v: '5' }]);
    await assert.rejects(
      () =>
        one.db.transaction().execute(async (trx) => {
          await sql`select ${1}::int as warm`.execute(trx);
          await lastOne(trx);
        }),
      /cached plan must not change result type/,
    );
    const rows = await one.db.transaction().execute(async (trx) => {
      await sql`select ${1}::int as warm`.execute(trx);
      return (await lastOne(trx)).rows;
    });
    assert.deepEqual(rows, [{ v: '5' }]);
  });
});
