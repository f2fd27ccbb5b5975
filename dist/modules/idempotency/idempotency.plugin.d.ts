import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
export interface IdempotencyOptions {
    db: Db;
    clock: Clock;
    ttlHours: number;
    /** Encrypts stored responses at rest (they may hold a webhook signing secret shown once). */
    secretKey: Buffer | null;
}
/** Prefix of a stored response encrypted at rest (secret-key rotation re-encrypts these). */
export declare const SEALED = "enc:v1:";
declare module 'fastify' {
    interface FastifyRequest {
        idempotency: {
            id: number;
        } | null;
    }
}
/** A record still "running" after this long belongs to a request whose process died: it may be taken over. */
export declare const ABANDONED_AFTER_MS: number;
export declare function requestFingerprint(method: string, path: string, body: unknown): string;
/**
 * Idempotency for every write of v1: the `Idempotency-Key` header (or `idempotency_key` in the
 * body; the header wins) is claimed in the database before the handler runs, so it holds
 * across processes. A replay answers the first status and body with `Idempotent-Replayed: true`.
 * Validation failures (422) and server errors (5xx) are not stored: the caller may fix and retry.
 */
export declare const idempotencyPlugin: import("fastify").FastifyPluginCallback<IdempotencyOptions, import("fastify").RawServerDefault, import("fastify").FastifyTypeProviderDefault, import("fastify").FastifyBaseLogger>;
