import { ConfigError, type Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { resolveSecretKey, withResolvedKey } from '../modules/secret-key/resolve.ts';
import type { DatabaseHandle } from './database.ts';
import { migrateToLatest, pendingMigrations } from './migrate.ts';

/**
 * What `serve` and `worker` do with the database before any work: migrate (or, with `--no-migrate`,
 * refuse a database that `custops migrate` has not brought up to this version), then resolve the
 * secret key against the fingerprint the database records. Answers the config holding that key.
 */
export async function prepareDatabase(database: DatabaseHandle, config: Config, clock: Clock, options: { migrate?: boolean } = {}): Promise<Config> {
  if (options.migrate === false) {
    const pending = await pendingMigrations(database.db);
    if (pending.length) {
      throw new ConfigError(
        '--no-migrate',
        `the database lacks ${pending.length} migration(s) of this version (${pending.join(', ')}): run "custops migrate" first`,
      );
    }
  } else {
    await migrateToLatest(database.db);
  }
  return withResolvedKey(config, await resolveSecretKey(config, database.db, clock.now()));
}
