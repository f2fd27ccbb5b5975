import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { Write } from '../lib/write.ts';

/** What route modules and services receive: narrow, explicit, and the same in tests. */
export interface ModuleDeps {
  db: Db;
  config: Config;
  clock: Clock;
  /** Opens every write transaction: the change, its events and its stored response commit together (lib/write.ts). */
  write: Write;
}
