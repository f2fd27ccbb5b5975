import { Migrator, PostgresAdapter, sql } from 'kysely';
import * as initial from './migrations/2026-11-21T0000_initial.js';
import * as deals from './migrations/2026-11-21T0120_deals.js';
import * as webhooks from './migrations/2026-11-21T0150_webhooks.js';
import * as analytics from './migrations/2026-11-21T0160_analytics.js';
import * as funnel from './migrations/2026-11-21T0170_funnel.js';
import * as idempotencyCommit from './migrations/2026-11-21T0180_idempotency_commit.js';
import * as listCounts from './migrations/2026-11-24T2200_list_counts.js';
import * as searchIndex from './migrations/2026-11-24T2210_search_index.js';
import * as statusSort from './migrations/2026-11-24T2220_status_sort.js';
import * as authChanges from './migrations/2026-11-24T2230_auth_changes.js';
import * as consoleSessions from './migrations/2026-11-24T2300_console_sessions.js';
import * as settings from './migrations/2026-11-24T2310_settings.js';
/**
 * Every migration, by dated name. Listed explicitly (no directory scan) so the set is the
 * same wherever the code runs and a missing file is a type error, not a silent skip.
 */
export const migrations = {
    '2026-11-21T0000_initial': initial,
    '2026-11-21T0120_deals': deals,
    '2026-11-21T0150_webhooks': webhooks,
    '2026-11-21T0160_analytics': analytics,
    '2026-11-21T0170_funnel': funnel,
    '2026-11-21T0180_idempotency_commit': idempotencyCommit,
    '2026-11-24T2200_list_counts': listCounts,
    '2026-11-24T2210_search_index': searchIndex,
    '2026-11-24T2220_status_sort': statusSort,
    '2026-11-24T2230_auth_changes': authChanges,
    '2026-11-24T2300_console_sessions': consoleSessions,
    '2026-11-24T2310_settings': settings,
};
/** `schema`: PostgreSQL schema for the migration bookkeeping tables when not the default (tests). */
export async function migrateToLatest(db, schema) {
    schema ??= await searchPathSchema(db);
    const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
        // Names are dated when work starts, so one may land after a later-dated one already ran somewhere: run it, don't refuse.
        allowUnorderedMigrations: true,
        ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const result = await migrator.migrateToLatest();
    if (result.error)
        throw result.error;
    return result;
}
/**
 * PostgreSQL: when the connection's search_path selects a schema other than public (a URL with
 * `options=-c search_path=…`), the bookkeeping tables live there too. Otherwise Kysely would
 * find another schema's kysely_migration table and then fail to read it through the search_path.
 */
async function searchPathSchema(db) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter))
        return undefined;
    const { rows } = await sql `select current_schema() as schema`.execute(db);
    const current = rows[0]?.schema;
    return current && current !== 'public' ? current : undefined;
}
/** Names of the migrations this code knows that the database has not run (a `--no-migrate` start refuses while any remain). */
export async function pendingMigrations(db, schema) {
    schema ??= await searchPathSchema(db);
    const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
        allowUnorderedMigrations: true,
        ...(schema ? { migrationTableSchema: schema } : {}),
    });
    return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
