import { CompiledQuery, type Compilable, type Kysely, type RawBuilder, type Selectable, type SelectType } from 'kysely';
import type pg from 'pg';
import type { DependencyStatus } from '../lib/dependency-status.ts';
import type { Db, Executor } from './database.ts';
import type { Database } from './schema.ts';
import { engineOf } from './engine.ts';
import { databaseUnavailable, translateDatabaseError } from './errors.ts';
import { PgStatement } from './pg-prepared.ts';
import type { NodeSqliteDatabase } from './sqlite-driver.ts';

/**
 * Prepared queries for the hot single-record reads (docs/design.md#prepared-queries): built with
 * Kysely once, compiled once per engine, then run with new values. On the pool (not in a
 * transaction) they skip Kysely's executor:
 * - PostgreSQL: a named statement on each pooled connection (parsed and its result described once per
 *   connection, db/pg-prepared.ts). Columns are listed, never `*`, so a column a later migration adds
 *   does not change the statement's result.
 * - SQLite: the statement runs at once on the process's one connection when no transaction is open
 *   on it. A read runs synchronously, so it is exactly the read the connection's lock would let
 *   through next; while a transaction is open the query waits for the lock as any other.
 * Errors are translated and the database status is kept as for every other query.
 */

/** The native connection behind a pool, registered by openDatabase. */
export interface DirectAccess {
  status: DependencyStatus;
  sqlite?: NodeSqliteDatabase;
  pool?: pg.Pool;
  /** The pool's type parsers (PostgreSQL). */
  getTypeParser?: (oid: number, format: 'text') => (value: string) => unknown;
}

const direct = new WeakMap<Db, DirectAccess>();

export function registerDirectAccess(db: Db, access: DirectAccess): void {
  direct.set(db, access);
}

/** SQLite's one connection behind `db` (null on PostgreSQL): for statements the write path runs on it directly (lib/group-commit.ts). */
export function sqliteConnectionOf(db: Db): NodeSqliteDatabase | null {
  return direct.get(db)?.sqlite ?? null;
}

/** Transactions on SQLite's one connection whose prepared queries run on it directly (see `onConnection`). */
const sqliteTransactions = new WeakMap<Executor, DirectAccess>();

/**
 * Marks `trx`, a transaction of `db`, as the one open on SQLite's connection (the write path calls it
 * as its transaction starts): its prepared queries then run on the connection at once, as the
 * statements of an open transaction (node:sqlite runs each synchronously, so nothing interleaves),
 * instead of through Kysely's executor and its transaction's connection queue. No effect on
 * PostgreSQL, whose transaction holds a pooled connection of its own.
 */
export function onConnection(trx: Executor, db: Db): void {
  const access = direct.get(db);
  if (access?.sqlite) sqliteTransactions.set(trx, access);
}

/** A value of the query, given when it runs: the query is built with these in the values' place. */
class Slot {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

interface Compiled {
  sql: string;
  /** The named statement of this SQL (PostgreSQL). */
  statement: PgStatement | null;
  /** Per parameter: the argument it takes (a slot's index) or the constant it is. */
  parameters: ({ arg: number } | { value: unknown })[];
}

export interface PreparedQuery<A extends unknown[], R> {
  /** The rows for these values, on the pool or within a transaction. */
  rows(db: Executor, ...args: A): Promise<R[]>;
  /**
   * The rows now, without a promise, where `rows` would read them at once (SQLite on the pool while no
   * transaction is open on its connection); null where the read has to wait (PostgreSQL, a transaction,
   * SQLite's connection busy): call `rows` then. A refused read throws its translated error.
   */
  rowsNow(db: Executor, ...args: A): R[] | null;
}

let statements = 0;

export interface PrepareOptions {
  /**
   * A cheap read (a row by key): on PostgreSQL's pool it goes to the server with the other such
   * reads asked for in the same event-loop turn, in one exchange (`pg-prepared.ts`, `Pipeline`).
   * The executions of one exchange run one after another on one connection, in one implicit
   * transaction: so only plain `select`s (checked when compiled) that take microseconds are sent
   * that way, never a write (a later execution's error would roll it back) nor a costly read (the
   * reads behind it would wait for it). Everything else goes alone, as its own exchange.
   */
  pipelined?: boolean;
}

/**
 * The column list of a prepared query that reads whole rows of table `T` (prepared statements name
 * their columns, docs/design.md#prepared-queries): `everyColumn<T>()([...])` fails the type check
 * when a column of `T` is missing from the list, so a new column cannot be left out of the read.
 */
export function everyColumn<T>() {
  return <const L extends readonly (keyof T)[]>(
    columns: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, L[number]> }),
  ): L => columns;
}

/**
 * `build` receives the database and one stand-in per argument (typed as the argument, so Kysely
 * checks the query as usual); the stand-ins may only be used as values. It returns a query builder,
 * or an `sql` template for a statement of one engine (a query builder cannot say it).
 */
export function prepareQuery<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R> | RawBuilder<R>,
  options: PrepareOptions = {},
): PreparedQuery<A, R> {
  const name = `custops_p${++statements}`;
  const byEngine = new Map<string, Compiled>();
  const compiledFor = (db: Executor): Compiled => {
    const engine = engineOf(db);
    let compiled = byEngine.get(engine.name);
    if (!compiled) {
      const slots = Array.from({ length: build.length - 1 }, (_, i) => new Slot(i)) as unknown as A;
      const built = build(db as Db, ...slots);
      const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      if (options.pipelined && query.query.kind !== 'SelectQueryNode') throw new Error(`${name}: only a select can be pipelined`);
      compiled = {
        sql: query.sql,
        statement: null,
        parameters: query.parameters.map((p) => (p instanceof Slot ? { arg: p.index } : { value: p })),
      };
      byEngine.set(engine.name, compiled);
    }
    return compiled;
  };
  const valuesOf = (compiled: Compiled, args: unknown[]) => compiled.parameters.map((p) => ('arg' in p ? args[p.arg] : p.value));
  /** The pool's direct access (none inside a transaction). */
  const accessOf = (db: Executor): DirectAccess | undefined => (db.isTransaction ? undefined : direct.get(db as Db));
  /** Whether a read on SQLite's connection runs now: on the pool, no transaction open on it. */
  const readsNow = (access: DirectAccess | undefined): boolean => access?.sqlite !== undefined && !access.sqlite.raw.isTransaction;
  const readNow = (access: DirectAccess, compiled: Compiled, args: unknown[]): R[] => {
    try {
      const rows = access.sqlite!.rows(compiled.sql, valuesOf(compiled, args)) as R[];
      access.status.succeeded();
      return rows;
    } catch (err) {
      throw failed(access.status, err);
    }
  };
  return {
    rowsNow(db, ...args) {
      const access = accessOf(db);
      return access && readsNow(access) ? readNow(access, compiledFor(db), args) : null;
    },
    rows(db, ...args) {
      const compiled = compiledFor(db);
      const own = db.isTransaction ? sqliteTransactions.get(db) : undefined;
      // The transaction open on the connection is this one (SQLite rolls back by itself on some errors: then not).
      if (own?.sqlite?.raw.isTransaction) {
        try {
          return Promise.resolve(readNow(own, compiled, args));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      const access = accessOf(db);
      if (access && readsNow(access)) {
        try {
          return Promise.resolve(readNow(access, compiled, args));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      const values = valuesOf(compiled, args);
      if (access?.pool && access.getTypeParser) {
        compiled.statement ??= new PgStatement(name, compiled.sql, access.getTypeParser);
        return compiled.statement.rows(access.pool, values, options.pipelined === true).then(
          (rows) => {
            access.status.succeeded();
            return rows as R[];
          },
          (err: unknown) => {
            throw failed(access.status, err);
          },
        );
      }
      return db.executeQuery<R>(CompiledQuery.raw(compiled.sql, values)).then((r) => r.rows);
    },
  };
}

/** Tables whose rows belong to an account (an `account_id` column). */
type AccountTable = { [T in keyof Database]: Database[T] extends { account_id: number } ? T : never }[keyof Database];

/** The database as a prepared row read sees it: any table, any column (its rows are typed by the caller's table). */
type AnyTables = Record<string, Record<string, unknown>>;

/**
 * The prepared read of the row of `table` that an account holds under `key = value`, every column
 * listed: `select <columns> from <table> where account_id = ? and <key> = ?`. Its rows are typed as
 * whole rows, so `columns` must name every column of the table (the type check says which is missing,
 * as `everyColumn` does).
 */
export function prepareAccountRow<T extends AccountTable, K extends keyof Database[T] & string, const L extends readonly (keyof Database[T] & string)[]>(
  table: T,
  columns: L & ([Exclude<keyof Database[T], L[number]>] extends [never] ? unknown : { missing: Exclude<keyof Database[T], L[number]> }),
  key: K,
): PreparedQuery<[accountId: number, value: SelectType<Database[T][K]>], Selectable<Database[T]>> {
  return prepareQuery<[accountId: number, value: SelectType<Database[T][K]>], Selectable<Database[T]>>(
    (db, accountId, value) =>
      (db as unknown as Kysely<AnyTables>)
        .selectFrom(table as string)
        .select(columns as readonly string[])
        .where('account_id', '=', accountId)
        .where(key as string, '=', value),
    { pipelined: true },
  );
}

/** The error as every query reports it (db/errors.ts), an outage noted as Kysely's query log notes it (database.ts). */
function failed(status: DependencyStatus, err: unknown): unknown {
  const translated = translateDatabaseError(err);
  const reason = databaseUnavailable(translated);
  if (reason) status.failed(translated, reason);
  return translated;
}

/**
 * The read of the row of `table` an account holds under an id: the prepared read (`prepareAccountRow`),
 * or, with `forUpdate`, the row locked on PostgreSQL (inside a write's transaction) so that
 * concurrent changes of one record run one after the other (SQLite's writers already do).
 */
export function accountRowById<T extends AccountTable, const L extends readonly (keyof Database[T] & string)[]>(
  table: T,
  columns: L & ([Exclude<keyof Database[T], L[number]>] extends [never] ? unknown : { missing: Exclude<keyof Database[T], L[number]> }),
): (db: Executor, accountId: number, id: number, options?: { forUpdate?: boolean }) => Promise<Selectable<Database[T]> | undefined> {
  // The column list was checked by this function's own signature.
  const byId = prepareAccountRow(table, columns as never, 'id' as never);
  return async (db, accountId, id, options = {}) => {
    if (!options.forUpdate) return (await byId.rows(db, accountId, id as never))[0];
    const query = (db as unknown as Kysely<AnyTables>)
      .selectFrom(table as string)
      .select(columns as readonly string[])
      .where('account_id', '=', accountId)
      .where('id', '=', id);
    return (await engineOf(db).forUpdate(query).executeTakeFirst()) as Selectable<Database[T]> | undefined;
  };
}
