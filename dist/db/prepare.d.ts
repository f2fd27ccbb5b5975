import { type Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import type { DatabaseHandle } from './database.ts';
/**
 * What `serve` and `worker` do with the database before any work: migrate (or, with `--no-migrate`,
 * refuse a database that `custops migrate` has not brought up to this version), then resolve the
 * secret key against the fingerprint the database records. Answers the config holding that key.
 */
export declare function prepareDatabase(database: DatabaseHandle, config: Config, clock: Clock, options?: {
    migrate?: boolean;
}): Promise<Config>;
