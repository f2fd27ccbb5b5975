import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { SqliteCheckpointer, type CheckpointerOption } from './sqlite-checkpointer.ts';

/** Values node:sqlite cannot bind are converted the same way everywhere: booleans to 0/1, dates to ISO text. */
function bindable(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as SQLInputValue;
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/**
 * Adapts Node's built-in `node:sqlite` (no native build, works on Node 24) to the statement
 * interface Kysely's SqliteDialect expects. Prepared statements are cached per SQL text:
 * Kysely compiles the same queries again and again, and preparing is the costly step.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, { stmt: StatementSync; reader: boolean }>();
  static readonly CACHE_SIZE = 512;

  /** The checkpoint thread of a serving process (`checkpointer` option), null elsewhere. */
  readonly checkpointer: SqliteCheckpointer | null = null;

  constructor(path: string, options: { busyTimeoutMs?: number; cacheMb?: number; checkpointer?: CheckpointerOption } = {}) {
    this.#db = new DatabaseSync(path);
    // Explicit pragmas: WAL for concurrent readers, NORMAL sync (durable at checkpoints, safe with WAL),
    // enforced foreign keys, a busy timeout for other processes, and a page cache of CUSTOPS_SQLITE_CACHE_MB
    // (16 MiB by default: docs/operations.md#memory).
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)};
      PRAGMA cache_size = -${Math.trunc((options.cacheMb ?? 16) * 1024)};
      PRAGMA temp_store = MEMORY;
    `);
    if (options.checkpointer && path !== ':memory:') {
      this.checkpointer = new SqliteCheckpointer(path, this.#db, options.checkpointer === true ? {} : options.checkpointer);
    }
  }

  get raw(): DatabaseSync {
    return this.#db;
  }

  close(): void {
    this.#cache.clear();
    this.#readers.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /** Statements of the prepared queries (db/prepared.ts), which read rows as arrays: a fixed, small set. */
  readonly #readers = new Map<string, { stmt: StatementSync; names: string[] }>();

  /**
   * The rows of a read, each built here from the array node:sqlite returns: node:sqlite builds a row
   * object property by property, which took a fifth more CPU than this for a row of twenty columns.
   */
  rows(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] {
    let entry = this.#readers.get(sql);
    if (!entry) {
      const stmt = this.#db.prepare(sql);
      stmt.setReturnArrays(true);
      entry = { stmt, names: stmt.columns().map((c) => c.name) };
      this.#readers.set(sql, entry);
    }
    const { stmt, names } = entry;
    const arrays = stmt.all(...parameters.map(bindable)) as unknown as unknown[][];
    return arrays.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
      return row;
    });
  }

  prepare(sql: string): SqliteStatement {
    // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM,
    // some SQLITE_BUSY): Kysely's ROLLBACK would then fail with "no transaction is active" and hide the
    // error that matters (a full disk is a 503, the rollback error a 500). Nothing is left to undo.
    if (!this.#db.isTransaction && /^\s*rollback\s*$/i.test(sql)) return NOTHING_TO_ROLL_BACK;
    // Transactions take the write lock when they begin, waiting up to the busy time-out for another
    // process's: a deferred BEGIN would take it at the first write instead, and SQLite refuses that
    // upgrade at once (SQLITE_BUSY, no waiting) while another connection writes, as it would deadlock.
    if (/^\s*begin\s*$/i.test(sql)) sql = 'begin immediate';
    let entry = this.#cache.get(sql);
    if (!entry) {
      const stmt = this.#db.prepare(sql);
      const reader = stmt.columns().length > 0;
      entry = { stmt, reader };
      if (this.#cache.size >= NodeSqliteDatabase.CACHE_SIZE) {
        const oldest = this.#cache.keys().next().value;
        if (oldest !== undefined) this.#cache.delete(oldest);
      }
      this.#cache.set(sql, entry);
    }
    const { stmt, reader } = entry;
    return {
      reader,
      all: (parameters: ReadonlyArray<unknown>) => {
        return stmt.all(...parameters.map(bindable));
      },
      run: (parameters: ReadonlyArray<unknown>) => {
        const r = stmt.run(...parameters.map(bindable));
        return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
      },
      iterate: (parameters: ReadonlyArray<unknown>) => {
        return stmt.iterate(...parameters.map(bindable)) as IterableIterator<unknown>;
      },
    };
  }
}
