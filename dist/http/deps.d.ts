import type { Config } from '../config.ts';
import type { Db, Dialect } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
/** What route modules and services receive: narrow, explicit, and the same in tests. */
export interface ModuleDeps {
    db: Db;
    dialect: Dialect;
    config: Config;
    clock: Clock;
    /** Called after a transaction that wrote outbox events commits, so the dispatcher wakes at once. */
    notifyEvents: () => void;
}
