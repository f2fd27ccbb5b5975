import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { fillPool, openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import {
  ConstraintViolation,
  DatabaseUnavailable,
  databaseUnavailable,
  translateDatabaseError,
  type ConstraintKind,
  type UnavailableReason,
} from '../../src/db/errors.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { AppError } from '../../src/lib/errors.ts';
import { createWrite } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createAudience } from '../../src/modules/contacts/audiences.service.ts';
import { createUser } from '../../src/modules/users/users.service.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// Every translation of src/db/errors.ts. Constraint violations and the unavailable kinds this machine
// can cause are raised by the real engine through the application's own Kysely instance (so through
// the translating driver), on both engines; the rest are driver errors built as the drivers build them.

/** The statement is refused with DatabaseUnavailable for `reason`, the driver's error kept as the cause. */
async function unavailable(reason: UnavailableReason, statement: () => Promise<unknown>, driverCode?: string | number): Promise<void> {
  await assert.rejects(statement, (err: unknown) => {
    assert.ok(err instanceof DatabaseUnavailable, `a DatabaseUnavailable, got ${String(err)}`);
    assert.equal(err.reason, reason);
    assert.equal(databaseUnavailable(err), reason);
    const cause = err.cause as { code?: unknown; errcode?: unknown };
    if (driverCode !== undefined) assert.equal(typeof driverCode === 'number' ? cause.errcode : cause.code, driverCode, String(err.cause));
    return true;
  });
}
for (const engine of engines()) {
  describe(`database errors are translated by code [${engine}]`, () => {
    let t: TestDatabase;
    /** A second, empty database: services' pre-checks read it and find nothing, so the write itself meets the constraint. */
    let empty: TestDatabase;
    let accountId: number;
    const clock = new FixedClock('2026-11-24T12:00:00Z');
    before(async () => {
      t = await createTestDatabase(engine);
      empty = await createTestDatabase(engine);
      ({
        account: { id: accountId },
      } = await createAccount({ db: t.handle.db, clock }, { name: 'Errors' }));
    });
    after(async () => {
      await t.drop();
      await empty.drop();
    });

    const rejects = async (kind: ConstraintKind, statement: () => Promise<unknown>) => {
      await assert.rejects(statement, (err: unknown) => {
        assert.ok(err instanceof ConstraintViolation, `a ConstraintViolation, got ${String(err)}`);
        assert.equal(err.kind, kind);
        assert.ok(err.cause, 'the driver error is kept as the cause');
        return true;
      });
    };
    const org = (name: string) => ({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: null, created_at: 1, updated_at: 1 });

    test('unique', async () => {
      const row = { account_id: accountId, name: 'Same', created_at: 1 };
      await t.handle.db.insertInto('marketing_audiences').values(row).execute();
      await rejects('unique', () => t.handle.db.insertInto('marketing_audiences').values(row).execute());
    });

    test('primary key (a unique key too)', async () => {
      const { id } = await t.handle.db.insertInto('orgs').values(org('Pk')).returning('id').executeTakeFirstOrThrow();
      await rejects('unique', () =>
        t.handle.db
          .insertInto('orgs')
          .values({ ...org('Pk again'), id })
          .execute(),
      );
    });

    test('foreign key', async () => {
      await rejects('foreign_key', () =>
        t.handle.db
          .insertInto('contacts')
          .values({
            account_id: accountId,
            org_id: 987_654_321,
            name: null,
            name_lc: null,
            email: null,
            email_lc: null,
            phone: null,
            title: null,
            created_at: 1,
            updated_at: 1,
          })
          .execute(),
      );
    });

    test('not null', async () => {
      await rejects('not_null', () =>
        t.handle.db
          .insertInto('orgs')
          .values({ ...org('No name'), name: null as unknown as string })
          .execute(),
      );
    });

    test('check', async () => {
      await rejects('check', () =>
        sql`insert into users (account_id, email, email_lc, display_name, role, is_active, support_enabled, created_at, updated_at)
        values (${accountId}, 'x@example.com', 'x@example.com', 'X', 'emperor', ${true}, ${false}, 1, 1)`.execute(t.handle.db),
      );
    });

    test('inside a transaction, and at its commit, errors are translated too', async () => {
      await rejects('unique', () =>
        t.handle.db.transaction().execute(async (trx) => {
          await trx.insertInto('marketing_audiences').values({ account_id: accountId, name: 'In trx', created_at: 1 }).execute();
          await trx.insertInto('marketing_audiences').values({ account_id: accountId, name: 'In trx', created_at: 1 }).execute();
        }),
      );
    });

    test('other errors pass through untouched', async () => {
      await assert.rejects(
        () => sql`select * from no_such_table`.execute(t.handle.db),
        (err: unknown) => {
          assert.ok(!(err instanceof ConstraintViolation) && !(err instanceof DatabaseUnavailable));
          assert.equal(databaseUnavailable(err), null);
          return true;
        },
      );
    });

    test('services turn a unique violation that slipped past their pre-check into 409 conflict', async () => {
      const write = createWrite({ db: t.handle.db, clock, wakeDispatcher: () => {} });
      await createAudience({ db: t.handle.db, write }, accountId, 'Raced');
      // The pre-check reads the empty database (as a concurrent request would, before the other commit).
      await assert.rejects(
        () => createAudience({ db: empty.handle.db, write }, accountId, 'Raced'),
        (err: unknown) => err instanceof AppError && err.code === 'conflict',
      );
      const user = { email: 'raced@example.com', display_name: 'Raced' };
      await createUser({ db: t.handle.db, write }, accountId, user);
      await assert.rejects(
        () => createUser({ db: empty.handle.db, write }, accountId, user),
        (err: unknown) => err instanceof AppError && err.code === 'conflict',
      );
    });

    if (engine === 'sqlite') {
      test('busy: a database file another connection holds the write lock of, past the busy time-out', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'custops-errors-'));
        const handle = openDatabase(`sqlite:${join(dir, 'busy.db')}`, { sqliteBusyTimeoutMs: 20 });
        const other = new DatabaseSync(join(dir, 'busy.db'));
        try {
          await migrateToLatest(handle.db);
          other.exec('BEGIN IMMEDIATE');
          await unavailable('database_busy', () => handle.db.insertInto('accounts').values({ name: 'Busy', created_at: 1 }).execute(), 5);
        } finally {
          other.exec('ROLLBACK');
          other.close();
          await handle.close();
          rmSync(dir, { recursive: true, force: true });
        }
      });

      test('full: no page left to write (max_page_count)', async () => {
        const handle = openDatabase('sqlite::memory:');
        try {
          await migrateToLatest(handle.db);
          const { id } = await handle.db.insertInto('accounts').values({ name: 'Full', created_at: 1 }).returning('id').executeTakeFirstOrThrow();
          const { page_count } = handle.sqlite!.raw.prepare('PRAGMA page_count').get() as { page_count: number };
          handle.sqlite!.raw.exec(`PRAGMA max_page_count = ${page_count}`);
          const big = 'x'.repeat(200_000);
          await unavailable(
            'database_full',
            () => handle.db.insertInto('marketing_audiences').values({ account_id: id, name: big, created_at: 1 }).execute(),
            13,
          );
        } finally {
          await handle.close();
        }
      });

      test('cannot open: the database file lies under a file, not a directory', () => {
        const dir = mkdtempSync(join(tmpdir(), 'custops-errors-'));
        writeFileSync(join(dir, 'file'), '');
        try {
          assert.throws(
            () => new DatabaseSync(join(dir, 'file', 'x.db')),
            (err: unknown) => {
              assert.equal((err as { errcode?: number }).errcode, 14);
              assert.equal(databaseUnavailable(err), 'database_unreachable');
              return true;
            },
          );
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }

    if (engine === 'postgres') {
      test('statement time-out: the server cancels a statement running past statement_timeout (57014)', async () => {
        const handle = openDatabase(t.url, { statementTimeoutMs: 50, poolSize: 1 });
        try {
          await unavailable('database_timeout', () => sql`select pg_sleep(5)`.execute(handle.db), '57014');
        } finally {
          await handle.close();
        }
      });

      test('lock not available: FOR UPDATE NOWAIT on a row another transaction locked (55P03)', async () => {
        const { id } = await t.handle.db.insertInto('orgs').values(org('Locked')).returning('id').executeTakeFirstOrThrow();
        await t.handle.db.transaction().execute(async (trx) => {
          await sql`select id from orgs where id = ${id} for update`.execute(trx);
          await unavailable('database_busy', () => sql`select id from orgs where id = ${id} for update nowait`.execute(t.handle.db), '55P03');
        });
      });

      test('deadlock: two transactions each waiting for the row the other locked (40P01)', async () => {
        const a = await t.handle.db.insertInto('orgs').values(org('Deadlock A')).returning('id').executeTakeFirstOrThrow();
        const b = await t.handle.db.insertInto('orgs').values(org('Deadlock B')).returning('id').executeTakeFirstOrThrow();
        let bothLocked!: () => void;
        const locked = new Promise<void>((resolve) => {
          let n = 0;
          bothLocked = () => {
            if (++n === 2) resolve();
          };
        });
        const crosswise = (first: number, second: number) =>
          t.handle.db.transaction().execute(async (trx) => {
            await sql`update orgs set updated_at = 2 where id = ${first}`.execute(trx);
            bothLocked();
            await locked;
            await sql`update orgs set updated_at = 3 where id = ${second}`.execute(trx);
          });
        const outcomes = await Promise.allSettled([crosswise(a.id, b.id), crosswise(b.id, a.id)]);
        const refused = outcomes.filter((o) => o.status === 'rejected');
        assert.equal(refused.length, 1, 'the server breaks the deadlock by refusing one of the two');
        await unavailable('database_busy', () => Promise.reject((refused[0] as PromiseRejectedResult).reason), '40P01');
      });

      test('admin shutdown: the server ends the connection a statement runs on (57P01)', async () => {
        const handle = openDatabase(t.url, { poolSize: 1 });
        const admin = new pg.Client({ connectionString: t.url });
        await admin.connect();
        try {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
          const running = sql`select pg_sleep(5)`.execute(handle.db);
          // Its rejection is awaited below; until then it is not an unhandled one.
          running.catch(() => {});
          // Ends our own connection once its statement runs (no other connection of the server is touched).
          for (let i = 0; i < 500; i++) {
            const { rows: active } = await admin.query(`select 1 from pg_stat_activity where pid = $1 and query like '%pg_sleep%' and state = 'active'`, [
              rows[0].pid,
            ]);
            if (active.length) break;
            await new Promise((r) => setTimeout(r, 10));
          }
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          await unavailable('database_unreachable', () => running, '57P01');
        } finally {
          await admin.end();
          await handle.close();
        }
      });

      test('connection refused: nothing listens at the address (ECONNREFUSED)', async () => {
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
        const { port } = closed.address() as { port: number };
        await new Promise((resolve) => closed.close(resolve));
        const handle = openDatabase(`postgres://custops@127.0.0.1:${port}/custops`);
        try {
          await unavailable('database_unreachable', () => sql`select 1`.execute(handle.db), 'ECONNREFUSED');
        } finally {
          await handle.close();
        }
      });

      test('connection reset: the peer resets the connection while the client connects (ECONNRESET)', async () => {
        const resetting = createServer((socket) => socket.resetAndDestroy());
        await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
        const { port } = resetting.address() as { port: number };
        const handle = openDatabase(`postgres://custops@127.0.0.1:${port}/custops`);
        try {
          await unavailable('database_unreachable', () => sql`select 1`.execute(handle.db));
        } finally {
          await handle.close();
          await new Promise((resolve) => resetting.close(resolve));
        }
      });

      test('pool exhausted: no connection freed within the connect time-out (pg-pool, no code)', async () => {
        const handle = openDatabase(t.url, { poolSize: 1, connectTimeoutMs: 50 });
        try {
          // The pool's one connection opened first (a loaded machine can take longer than 50 ms to
          // connect): the transaction then holds it, and the time-out is the wait for a free one.
          for (let attempt = 1; ; attempt++) {
            try {
              await sql`select 1`.execute(handle.db);
              break;
            } catch (err) {
              if (attempt === 20) throw err;
            }
          }
          await handle.db.transaction().execute(async () => {
            await unavailable('database_timeout', () => sql`select 1`.execute(handle.db));
          });
        } finally {
          await handle.close();
        }
      });
    }
  });
}

/** A node-postgres error as the driver builds it from the server's ErrorResponse. */
function postgresError(code: string): Error {
  const err = new pg.DatabaseError(`server error ${code}`, 0, 'error');
  err.code = code;
  return err;
}

/** A node:sqlite error as the driver builds it. */
function sqliteError(errcode: number): Error {
  return Object.assign(new Error(`sqlite error ${errcode}`), { code: 'ERR_SQLITE_ERROR', errcode, errstr: `sqlite error ${errcode}` });
}

describe('driver errors this machine cannot cause, built as the drivers build them', () => {
  const cases: [string, Error, UnavailableReason | ConstraintKind][] = [
    ['PostgreSQL 08006 connection_failure', postgresError('08006'), 'database_unreachable'],
    ['PostgreSQL 08001 unable to connect', postgresError('08001'), 'database_unreachable'],
    ['PostgreSQL 53300 too_many_connections', postgresError('53300'), 'database_unreachable'],
    ['PostgreSQL 53200 out_of_memory', postgresError('53200'), 'database_unreachable'],
    ['PostgreSQL 53100 disk_full', postgresError('53100'), 'database_full'],
    ['PostgreSQL 57P02 crash_shutdown', postgresError('57P02'), 'database_unreachable'],
    ['PostgreSQL 57P03 cannot_connect_now', postgresError('57P03'), 'database_unreachable'],
    ['PostgreSQL 58030 io_error', postgresError('58030'), 'database_unreachable'],
    ['PostgreSQL 40001 serialization_failure', postgresError('40001'), 'database_busy'],
    ['SQLite 6 SQLITE_LOCKED', sqliteError(6), 'database_busy'],
    ['SQLite 517 SQLITE_BUSY_SNAPSHOT (extended)', sqliteError(517), 'database_busy'],
    ['SQLite 7 SQLITE_NOMEM', sqliteError(7), 'database_unreachable'],
    ['SQLite 266 SQLITE_IOERR_READ (extended)', sqliteError(266), 'database_unreachable'],
    ['node-postgres: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly'), 'database_unreachable'],
    ['node-postgres: Query read timeout', new Error('Query read timeout'), 'database_timeout'],
    ['a socket error: EPIPE', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }), 'database_unreachable'],
  ];
  for (const [name, err, expected] of cases) {
    test(`${name} → ${expected}`, () => {
      const translated = translateDatabaseError(err);
      assert.ok(translated instanceof DatabaseUnavailable, String(translated));
      assert.equal(translated.reason, expected);
      assert.equal(translated.cause, err);
      assert.equal(databaseUnavailable(err), expected, 'the untranslated error (a pool event) is classified alike');
      assert.equal(databaseUnavailable(new Error('wrapped', { cause: err })), expected, 'through a cause');
    });
  }

  test('an error of no known code passes through untouched', () => {
    for (const err of [postgresError('42P01'), sqliteError(1), new Error('boom')]) {
      assert.equal(translateDatabaseError(err), err);
      assert.equal(databaseUnavailable(err), null);
    }
  });
});

describe('fillPool: serve makes its pool connections before it listens', { skip: !engines().includes('postgres') }, () => {
  test('every connection of the pool is made and idle, and an unreachable server leaves it empty without an error', async () => {
    const t = await createTestDatabase('postgres');
    const handle = openDatabase(t.url, { poolSize: 4 });
    try {
      assert.equal(handle.pool!.totalCount, 0);
      assert.equal(await fillPool(handle), 4);
      assert.equal(handle.pool!.totalCount, 4);
      assert.equal(handle.pool!.idleCount, 4);
      // The connections are the pool's: a query after it makes no new one.
      await sql`select 1`.execute(handle.db);
      assert.equal(handle.pool!.totalCount, 4);
    } finally {
      await handle.close();
      await t.drop();
    }
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = openDatabase(`postgres://custops@127.0.0.1:${port}/custops`, { poolSize: 3 });
    try {
      assert.equal(await fillPool(unreachable), 0);
      assert.equal(unreachable.pool!.totalCount, 0);
    } finally {
      await unreachable.close();
    }
  });

  test('SQLite has no pool to fill', async () => {
    const handle = openDatabase('sqlite::memory:');
    try {
      assert.equal(await fillPool(handle), 0);
    } finally {
      await handle.close();
    }
  });
});
