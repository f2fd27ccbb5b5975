import { type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './database.ts';
/**
 * Every migration, by dated name. Listed explicitly (no directory scan) so the set is the
 * same wherever the code runs and a missing file is a type error, not a silent skip.
 */
export declare const migrations: Record<string, Migration>;
/** `schema`: PostgreSQL schema for the migration bookkeeping tables when not the default (tests). */
export declare function migrateToLatest(db: Db, schema?: string): Promise<MigrationResultSet>;
/** Names of the migrations this code knows that the database has not run (a `--no-migrate` start refuses while any remain). */
export declare function pendingMigrations(db: Db, schema?: string): Promise<string[]>;
