import { DatabaseSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
/**
 * Adapts Node's built-in `node:sqlite` (no native build, works on Node 24) to the statement
 * interface Kysely's SqliteDialect expects. Prepared statements are cached per SQL text:
 * Kysely compiles the same queries again and again, and preparing is the costly step.
 */
export declare class NodeSqliteDatabase implements SqliteDatabase {
    #private;
    static readonly CACHE_SIZE = 512;
    constructor(path: string, options?: {
        busyTimeoutMs?: number;
    });
    get raw(): DatabaseSync;
    /**
     * Changes whenever the database may have changed: a statement other than a SELECT on this
     * connection, or a commit by any other connection or process (`PRAGMA data_version`). Results
     * cached under one generation are exact while it holds.
     */
    generation(): string;
    close(): void;
    prepare(sql: string): SqliteStatement;
}
