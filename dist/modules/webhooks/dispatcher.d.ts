import type { LookupFunction } from 'node:net';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { type Clock } from '../../lib/clock.ts';
export interface DispatcherOptions {
    database: DatabaseHandle;
    config: Config;
    clock?: Clock;
    log?: {
        info(obj: object, msg?: string): void;
        warn(obj: object, msg?: string): void;
        error(obj: object, msg?: string): void;
    };
    /** Extra trusted CA for receivers (in-process tests); NODE_EXTRA_CA_CERTS works too. */
    ca?: string | Buffer;
    lookup?: LookupFunction;
    perEndpointConcurrency?: number;
    globalConcurrency?: number;
    /** Safety poll for work nobody signalled (retries coming due, other processes on SQLite). */
    pollIntervalMs?: number;
    random?: () => number;
}
export declare class Dispatcher {
    #private;
    constructor(options: DispatcherOptions);
    /** Starts the loop (and LISTEN on PostgreSQL). */
    start(): Promise<void>;
    /**
     * New work may be there: run a pass soon. Cheap and safe to call often: wakes within
     * WAKE_COALESCE_MS share one pass, so a burst of committed writes costs one fan-out, not one each.
     */
    wake(): void;
    /** Runs passes until nothing is due now and nothing is in flight (tests and benchmarks). */
    drain(): Promise<void>;
    /** Stops claiming, lets the attempts in flight finish and be recorded, then closes connections. */
    stop(): Promise<void>;
}
