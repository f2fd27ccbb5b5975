import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { type Clock } from './lib/clock.ts';
import { type RateLimitStore } from './http/rate-limit.ts';
import type { App } from './http/types.ts';
export declare const VERSION = "1.0.0";
export declare const BODY_LIMIT: number;
export declare const MAX_BODY_DEPTH = 32;
export interface AppDeps {
    database: DatabaseHandle;
    clock?: Clock;
    rateLimitStore?: RateLimitStore;
    notifyEvents?: () => void;
    /** Pino options or false; tests pass false. */
    logger?: boolean | object;
}
/**
 * The composition root: cross-cutting plugins first (errors, JSON parsing, auth, idempotency,
 * OpenAPI), then each module's routes, in the order they read in the API index.
 */
export declare function buildApp(config: Config, deps: AppDeps): Promise<App>;
