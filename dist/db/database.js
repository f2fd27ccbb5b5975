import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { NodeSqliteDatabase } from './sqlite-driver.js';
// bigint (int8) columns hold ids and epoch-millisecond timestamps, all below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// count(*) and sum() come back as numeric in some cases; read as numbers too.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
/** The result cache of each SQLite Kysely instance (PostgreSQL ones have none). */
const resultCaches = new WeakMap();
/** The result cache behind `db`, or undefined where results cannot be cached (PostgreSQL, inside transactions). */
export function resultCacheOf(db) {
    return db.isTransaction ? undefined : resultCaches.get(db);
}
export function sqlitePath(url) {
    const path = url.slice('sqlite:'.length);
    if (path === ':memory:' || path === '')
        return ':memory:';
    return resolve(path.replace(/^\/\/\//, '/'));
}
export function openDatabase(url, options = {}) {
    if (url.startsWith('sqlite:')) {
        const path = sqlitePath(url);
        if (path !== ':memory:')
            mkdirSync(dirname(path), { recursive: true });
        const sqlite = new NodeSqliteDatabase(path);
        const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
        resultCaches.set(db, { generation: () => sqlite.generation(), entries: new Map() });
        return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
    }
    const pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize ?? 10,
        ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
}
