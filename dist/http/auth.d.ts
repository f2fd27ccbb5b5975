import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { KeyCache } from '../modules/api-keys/key-cache.ts';
import type { RateLimitStore } from './rate-limit.ts';
import type { AuthContext } from './types.ts';
export interface AuthOptions {
    db: Db;
    /** API keys by secret hash, without a database round trip per request (revocations invalidate it in every process). */
    keys: KeyCache;
    clock: Clock;
    store: RateLimitStore;
    defaultRateLimit: number;
    /** Resolves a console session cookie to its caller, or null when the session is over. */
    authenticateSession: (token: string, request: FastifyRequest) => Promise<AuthContext | null>;
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
