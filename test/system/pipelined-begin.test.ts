import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type pg from 'pg';
import { openDatabase, type DatabaseHandle, type Executor } from '../../src/db/database.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// On PostgreSQL a transaction's `begin` is sent with its first statement, in one write and one
// round trip (src/db/pg-statement-names.ts, docs/design.md#named-statements-on-postgresql). The
// handle has one connection; the writes its socket makes are counted.

describe('begin sent with the first statement (PostgreSQL)', { skip: !engines().includes('postgres') }, () => {
  let t: TestDatabase;
  let one: DatabaseHandle;
  let writes = 0;

  before(async () => {
    t = await createTestDatabase('postgres');
    one = openDatabase(t.url, { poolSize: 1 });
    await sql`create table pipelined (id int primary key)`.execute(one.db);
    const counted = new WeakSet<object>();
    one.pool!.on('acquire', (client: pg.Client) => {
      const stream = (client as unknown as { connection: { stream: { _write: (...a: unknown[]) => unknown; _writev?: (...a: unknown[]) => unknown } } })
        .connection.stream;
      if (counted.has(stream)) return;
      counted.add(stream);
      const write = stream._write;
      const writev = stream._writev;
      stream._write = function (...a: unknown[]) {
        writes++;
        return write.apply(this, a);
      };
      if (writev) {
        stream._writev = function (...a: unknown[]) {
          writes++;
          return writev.apply(this, a);
        };
      }
    });
    // The connection runs `begin` once as its named statement; later transactions send it along.
    await one.db.transaction().execute(async (trx) => sql`select ${1}::int as one`.execute(trx));
  });
  after(async () => {
    await one?.close();
    await t?.drop();
  });

  const txid = (db: Executor, n: number) => sql<{ txid: string }>`select txid_current()::text as txid, ${n}::int as n`.execute(db).then((r) => r.rows[0].txid);

  test('a transaction of two statements makes three writes: begin with the first statement, the second, the commit', async () => {
    const before = writes;
    const ids = await one.db.transaction().execute(async (trx) => [await txid(trx, 1), await txid(trx, 2)]);
    assert.equal(ids[0], ids[1], 'both statements ran in one transaction');
    assert.equal(writes - before, 3, 'begin + first statement, second statement, commit');
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
    const before = writes;
    await one.db.transaction().execute(async () => undefined);
    await assert.rejects(() =>
      one.db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
    );
    assert.equal(writes - before, 0);
    assert.equal((await sql<{ n: number }>`select ${5}::int as n`.execute(one.db)).rows[0].n, 5);
  });

  test('a first statement without values gets its begin as a query of its own, and runs inside the transaction', async () => {
    const before = writes;
    const ids = await one.db
      .transaction()
      .execute(async (trx) => [(await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx)).rows[0].txid, await txid(trx, 4)]);
    assert.equal(ids[0], ids[1]);
    assert.equal(writes - before, 4, 'begin, the first statement, the second, commit');
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
});
