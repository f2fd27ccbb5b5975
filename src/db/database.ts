import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent, type Transaction } from 'kysely';
import pg from 'pg';
import { DependencyStatus } from '../lib/dependency-status.ts';
import { databaseUnavailable } from './errors.ts';
import type { Database } from './schema.ts';
import type { Config } from '../config.ts';
import { NodeSqliteDatabase } from './sqlite-driver.ts';
import type { CheckpointerOption } from './sqlite-checkpointer.ts';
import { translatingDialect } from './translating-driver.ts';
import { registerDirectAccess } from './prepared.ts';
import { namingClient, StatementNames } from './pg-statement-names.ts';

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Anything a repository can run a query on: the pool or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

/**
 * How this project's pools read PostgreSQL values (set per pool, not globally, so other pg users in
 * the process are untouched): bigint (int8) columns hold ids and epoch-millisecond timestamps, all
 * below 2^53, and count(*) or sum() may come back as numeric: both are read as numbers.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The node:sqlite connection (SQLite only), for pragmas and benchmarks. */
  sqlite?: NodeSqliteDatabase;
  /** The node-postgres pool (PostgreSQL only), for LISTEN/NOTIFY and benchmarks. */
  pool?: pg.Pool;
  /** Whether the last use of the database succeeded: outages are logged once and reported by /readyz and /metrics. */
  status: DependencyStatus;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL: give up connecting (or waiting for a pooled connection) after this long. */
  connectTimeoutMs?: number;
  /** PostgreSQL: the server cancels a statement running longer than this (0: never). */
  statementTimeoutMs?: number;
  /** SQLite: how long a write waits for another process's write lock before SQLITE_BUSY. */
  sqliteBusyTimeoutMs?: number;
  /** SQLite: the page cache of the connection, in MiB (default 16). */
  sqliteCacheMb?: number;
  /**
   * SQLite: WAL checkpoints on a thread of their own while writes keep growing the log (`serve` and
   * `worker`; `startAtPages` for tests): sqlite-checkpointer.ts.
   */
  sqliteCheckpointer?: CheckpointerOption;
  /** PostgreSQL: connections in the pool. */
  poolSize?: number;
  /** PostgreSQL: schema to use as search_path (tests isolate each file in its own schema). */
  schema?: string;
}

export function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:' || path === '') return ':memory:';
  return resolve(path.replace(/^\/\/\//, '/'));
}

/** The time-outs (and SQLite's page cache) of the configuration, as open options. */
export function timeoutsOf(config: Config): OpenOptions {
  return {
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    sqliteCacheMb: config.sqliteCacheMb,
  };
}

/** Kysely's query log, used only to notice that the database answers again (or stopped answering). */
function watch(status: DependencyStatus): (event: LogEvent) => void {
  return (event) => {
    if (event.level === 'query') status.succeeded();
    else {
      const reason = databaseUnavailable(event.error);
      if (reason) status.failed(event.error, reason);
    }
  };
}

/**
 * Opens every connection of a PostgreSQL pool at once and gives them back to it (SQLite: nothing to
 * do), so that the first requests after a start do not each wait for a connection to be made:
 * `serve` calls it before it listens. Best effort: a connection that cannot be made now (the server
 * at its connection limit, say) is made on demand later, as without it. Idle connections still close
 * after the pool's idle time-out (10 s).
 */
export async function fillPool(handle: DatabaseHandle): Promise<number> {
  const pool = handle.pool;
  if (!pool) return 0;
  const made = await Promise.allSettled(Array.from({ length: pool.options.max }, () => pool.connect()));
  let opened = 0;
  for (const m of made) {
    if (m.status === 'fulfilled') {
      m.value.release();
      opened++;
    }
  }
  return opened;
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  const status = new DependencyStatus('database');
  if (url.startsWith('sqlite:')) {
    const path = sqlitePath(url);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const sqlite = new NodeSqliteDatabase(path, {
      busyTimeoutMs: options.sqliteBusyTimeoutMs,
      cacheMb: options.sqliteCacheMb,
      checkpointer: options.sqliteCheckpointer,
    });
    const db = new Kysely<Database>({ dialect: translatingDialect(new SqliteDialect({ database: sqlite })), log: watch(status) });
    registerDirectAccess(db, { status, sqlite });
    // The checkpoint thread closes its connection first, so that the serving one is the last and
    // SQLite checkpoints and removes the log as it closes.
    const close = async () => {
      await sqlite.checkpointer?.stop();
      await db.destroy();
      sqlite.close(); // Kysely closes it only if a query ran through it
    };
    return { db, dialect: 'sqlite', sqlite, status, close };
  }
  // Without options (tests, benchmarks, scripts) there are no time-outs, as node-postgres has none;
  // serve, worker and the CLI pass the configured ones (timeoutsOf).
  const statementTimeoutMs = options.statementTimeoutMs ?? 0;
  const pool = new pg.Pool({
    connectionString: url,
    // Texts run again and again become named statements, planned once per connection (pg-statement-names.ts).
    Client: namingClient(new StatementNames()),
    max: options.poolSize ?? 10,
    types: pgTypes,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 0,
    // Server side: the statement is cancelled (57014). Client side, a little later: a server that
    // stopped answering (hung, or a network that drops packets) cannot hold a request forever.
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 1_000 } : {}),
    // Dead peers behind a silent network are noticed by TCP keep-alive instead of never.
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle pooled connection that breaks (database restart, failover, network) emits 'error' on the
  // pool; unhandled, that event ends the process. The pool has already dropped that connection and
  // opens a new one on the next checkout, so noting the outage is all there is to do.
  const lost = (err: Error) => status.failed(err, databaseUnavailable(err) ?? 'database_unreachable');
  pool.on('error', lost);
  // A checked-out connection has no pool listener: one that breaks between two queries (inside a
  // transaction, or just acquired) would emit an unhandled 'error' too. Its next query fails (a 503)
  // and the pool discards it on release, as it is no longer queryable.
  pool.on('connect', (client) => client.on('error', lost));
  const db = new Kysely<Database>({ dialect: translatingDialect(new PostgresDialect({ pool })), log: watch(status) });
  registerDirectAccess(db, { status, pool, getTypeParser: pgTypes.getTypeParser });
  return { db, dialect: 'postgres', pool, status, close: () => db.destroy() };
}
