import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './database.ts';
import * as initial from './migrations/2026-11-21T0000_initial.ts';

/**
 * Every migration, by dated name. Listed explicitly (no directory scan) so the set is the
 * same wherever the code runs and a missing file is a type error, not a silent skip.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-21T0000_initial': initial,
};

/** `schema`: PostgreSQL schema for the migration bookkeeping tables when not the default (tests). */
export async function migrateToLatest(db: Db, schema?: string): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
