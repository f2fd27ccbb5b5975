import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { NodeSqliteDatabase } from './sqlite-driver.ts';

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Anything a repository can run a query on: the pool or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

// bigint (int8) columns hold ids and epoch-millisecond timestamps, all below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// count(*) and sum() come back as numeric in some cases; read as numbers too.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The node:sqlite connection (SQLite only), for pragmas and benchmarks. */
  sqlite?: NodeSqliteDatabase;
  /** The node-postgres pool (PostgreSQL only), for LISTEN/NOTIFY and benchmarks. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenOptions {
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

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) {
    const path = sqlitePath(url);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const sqlite = new NodeSqliteDatabase(path);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', pool, close: () => db.destroy() };
}
