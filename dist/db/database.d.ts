import { Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { DependencyStatus } from '../lib/dependency-status.ts';
import type { Database } from './schema.ts';
import type { Config } from '../config.ts';
import { NodeSqliteDatabase } from './sqlite-driver.ts';
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Anything a repository can run a query on: the pool or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';
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
    /** PostgreSQL: connections in the pool. */
    poolSize?: number;
    /** PostgreSQL: schema to use as search_path (tests isolate each file in its own schema). */
    schema?: string;
}
export declare function sqlitePath(url: string): string;
/** The time-outs of the configuration, as open options. */
export declare function timeoutsOf(config: Config): OpenOptions;
export declare function openDatabase(url: string, options?: OpenOptions): DatabaseHandle;
