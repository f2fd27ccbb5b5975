import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
export interface DemoResult {
    account: {
        id: number;
        name: string;
    };
    key: {
        id: number;
        name: string;
        scopes: string[];
        rate_limit_per_minute: number | null;
        secret: string;
    };
    /** A web console sign-in: the demo account's owner with a password generated for this run. */
    console: {
        email: string;
        password: string;
    };
}
/**
 * `custops demo`: one account with a realistic, deterministic data set (the same seed gives the
 * same records, placed relative to now), written in one transaction straight through Kysely,
 * plus a full-access API key.
 */
export declare function seedDemo(deps: {
    db: Db;
    clock: Clock;
    config: Config;
}, options: {
    seed: number;
}): Promise<DemoResult>;
