import type { Config } from './config.ts';
import { type DatabaseHandle } from './db/database.ts';
import type { App } from './http/types.ts';
import { type Clock } from './lib/clock.ts';
export interface RunningServer {
    app: App;
    database: DatabaseHandle;
    url: string;
    stop(): Promise<void>;
}
export interface ServerOptions {
    clock?: Clock;
    logger?: boolean | object;
    /** false (`serve --no-migrate`): refuse a database `custops migrate` has not brought up to date, instead of migrating it. */
    migrate?: boolean;
}
/** `custops serve`: migrate, check the secret key, listen, and run the housekeeping of one process. */
export declare function startServer(settings: Config, options?: ServerOptions): Promise<RunningServer>;
