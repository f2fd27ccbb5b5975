import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimitStore } from './rate-limit.ts';
export interface AuthOptions {
    db: Db;
    clock: Clock;
    store: RateLimitStore;
    defaultRateLimit: number;
}
export declare function readBearer(header: string | undefined): string | null;
/** X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body keyed with the key secret as sent. */
export declare function signatureMatches(secret: string, rawBody: Buffer | undefined, signature: string): boolean;
/**
 * The checks of every authenticated route, in the order decisions.md fixes:
 * authentication (401) → signature (403) → rate limit (429) → scope (403); then the body's
 * JSON syntax (422) and schema validation. Public routes (`config.scope === null`) skip them.
 */
export declare const authPlugin: import("fastify").FastifyPluginCallback<AuthOptions, import("fastify").RawServerDefault, import("fastify").FastifyTypeProviderDefault, import("fastify").FastifyBaseLogger>;
