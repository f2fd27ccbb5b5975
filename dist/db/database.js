import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { DependencyStatus } from '../lib/dependency-status.js';
import { databaseUnavailable } from './faults.js';
import { NodeSqliteDatabase } from './sqlite-driver.js';
// bigint (int8) columns hold ids and epoch-millisecond timestamps, all below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// count(*) and sum() come back as numeric in some cases; read as numbers too.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
export function sqlitePath(url) {
    const path = url.slice('sqlite:'.length);
    if (path === ':memory:' || path === '')
        return ':memory:';
    return resolve(path.replace(/^\/\/\//, '/'));
}
/** The time-outs of the configuration, as open options. */
export function timeoutsOf(config) {
    return { connectTimeoutMs: config.dbConnectTimeoutMs, statementTimeoutMs: config.dbStatementTimeoutMs, sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs };
}
/** Kysely's query log, used only to notice that the database answers again (or stopped answering). */
function watch(status) {
    return (event) => {
        if (event.level === 'query')
            status.succeeded();
        else {
            const reason = databaseUnavailable(event.error);
            if (reason)
                status.failed(event.error, reason);
        }
    };
}
export function openDatabase(url, options = {}) {
    const status = new DependencyStatus('database');
    if (url.startsWith('sqlite:')) {
        const path = sqlitePath(url);
        if (path !== ':memory:')
            mkdirSync(dirname(path), { recursive: true });
        const sqlite = new NodeSqliteDatabase(path, { busyTimeoutMs: options.sqliteBusyTimeoutMs });
        const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }), log: watch(status) });
        return { db, dialect: 'sqlite', sqlite, status, close: () => db.destroy() };
    }
    // Without options (tests, benchmarks, scripts) there are no time-outs, as node-postgres has none;
    // serve, worker and the CLI pass the configured ones (timeoutsOf).
    const statementTimeoutMs = options.statementTimeoutMs ?? 0;
    const pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize ?? 10,
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
    const lost = (err) => status.failed(err, databaseUnavailable(err) ?? 'database_unreachable');
    pool.on('error', lost);
    // A checked-out connection has no pool listener: one that breaks between two queries (inside a
    // transaction, or just acquired) would emit an unhandled 'error' too. Its next query fails (a 503)
    // and the pool discards it on release, as it is no longer queryable.
    pool.on('connect', (client) => client.on('error', lost));
    const db = new Kysely({ dialect: new PostgresDialect({ pool }), log: watch(status) });
    return { db, dialect: 'postgres', pool, status, close: () => db.destroy() };
}
