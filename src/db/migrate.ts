import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './database.ts';
import { engineOf } from './engine.ts';
import * as initial from './migrations/2026-11-21T0000_initial.ts';
import * as deals from './migrations/2026-11-21T0120_deals.ts';
import * as webhooks from './migrations/2026-11-21T0150_webhooks.ts';
import * as analytics from './migrations/2026-11-21T0160_analytics.ts';
import * as funnel from './migrations/2026-11-21T0170_funnel.ts';
import * as idempotencyCommit from './migrations/2026-11-21T0180_idempotency_commit.ts';
import * as listCounts from './migrations/2026-11-24T2200_list_counts.ts';
import * as searchIndex from './migrations/2026-11-24T2210_search_index.ts';
import * as statusSort from './migrations/2026-11-24T2220_status_sort.ts';
import * as authChanges from './migrations/2026-11-24T2230_auth_changes.ts';
import * as consoleSessions from './migrations/2026-11-24T2300_console_sessions.ts';
import * as settings from './migrations/2026-11-24T2310_settings.ts';
import * as deliveryStatusIndex from './migrations/2026-11-25T0130_delivery_status_index.ts';
import * as analyticsLevels from './migrations/2026-11-25T0300_analytics_levels.ts';
import * as analyticsKept from './migrations/2026-11-25T0310_analytics_kept.ts';
import * as analyticsCoveringKey from './migrations/2026-11-25T0320_analytics_covering_key.ts';
import * as searchByAccount from './migrations/2026-11-25T0400_search_by_account.ts';
import * as ownerStatusIndex from './migrations/2026-11-27T1700_owner_status_index.ts';
import * as rollupsAtCommit from './migrations/2026-11-27T1900_rollups_at_commit.ts';
import * as lastActivityTrigger from './migrations/2026-11-27T1910_last_activity_trigger.ts';
import * as dailyRollupMoves from './migrations/2026-11-28T0300_daily_rollup_moves.ts';
import * as counterStatementsPostgres from './migrations/2026-11-28T0310_counter_statements_postgres.ts';
import * as openDealActivity from './migrations/2026-11-28T0400_open_deal_activity.ts';
import * as idempotencyRequestBytes from './migrations/2026-11-28T1000_idempotency_request_bytes.ts';
import * as dueOrderPostgres from './migrations/2026-11-28T1100_due_order_postgres.ts';
import * as openPipeline from './migrations/2026-11-28T1900_open_pipeline.ts';

/**
 * Every migration, by dated name. Listed explicitly (no directory scan) so the set is the
 * same wherever the code runs and a missing file is a type error, not a silent skip.
 */
export const migrations: Record<string, Migration> = {
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
  '2026-11-25T0130_delivery_status_index': deliveryStatusIndex,
  '2026-11-25T0300_analytics_levels': analyticsLevels,
  '2026-11-25T0310_analytics_kept': analyticsKept,
  '2026-11-25T0320_analytics_covering_key': analyticsCoveringKey,
  '2026-11-25T0400_search_by_account': searchByAccount,
  '2026-11-27T1700_owner_status_index': ownerStatusIndex,
  '2026-11-27T1900_rollups_at_commit': rollupsAtCommit,
  '2026-11-27T1910_last_activity_trigger': lastActivityTrigger,
  '2026-11-28T0300_daily_rollup_moves': dailyRollupMoves,
  '2026-11-28T0310_counter_statements_postgres': counterStatementsPostgres,
  '2026-11-28T0400_open_deal_activity': openDealActivity,
  '2026-11-28T1000_idempotency_request_bytes': idempotencyRequestBytes,
  '2026-11-28T1100_due_order_postgres': dueOrderPostgres,
  '2026-11-28T1900_open_pipeline': openPipeline,
};

/**
 * The migrator over this code's migrations. The bookkeeping tables live in `schema` (PostgreSQL), by
 * default the one the connection's search_path selects when not public (a URL with
 * `options=-c search_path=…`, as tests use): otherwise Kysely would find another schema's
 * kysely_migration table and then fail to read it through the search_path.
 */
async function migratorFor(db: Db, schema?: string): Promise<Migrator> {
  schema ??= await engineOf(db).currentSchema(db);
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Names are dated when work starts, so one may land after a later-dated one already ran somewhere: run it, don't refuse.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(db: Db, schema?: string): Promise<MigrationResultSet> {
  const result = await (await migratorFor(db, schema)).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/** Names of the migrations this code knows that the database has not run (a `--no-migrate` start refuses while any remain). */
export async function pendingMigrations(db: Db, schema?: string): Promise<string[]> {
  const migrator = await migratorFor(db, schema);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
