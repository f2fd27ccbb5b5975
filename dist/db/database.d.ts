import { Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
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
    close(): Promise<void>;
}
export interface OpenOptions {
    /** PostgreSQL: connections in the pool. */
    poolSize?: number;
    /** PostgreSQL: schema to use as search_path (tests isolate each file in its own schema). */
    schema?: string;
}
/** Results remembered for one database, valid while its generation holds. */
export interface ResultCache {
    generation(): string;
    readonly entries: Map<string, {
        generation: string;
        value: number;
    }>;
}
/** The result cache behind `db`, or undefined where results cannot be cached (PostgreSQL, inside transactions). */
export declare function resultCacheOf(db: Executor): ResultCache | undefined;
export declare function sqlitePath(url: string): string;
export declare function openDatabase(url: string, options?: OpenOptions): DatabaseHandle;
