import type { Executor } from '../../db/database.ts';
export declare function findKeyByHash(db: Executor, secretHash: string): Promise<{
    account_id: number;
    id: number;
    last_used_at: number | null;
    rate_limit_per_minute: number | null;
    revoked_at: number | null;
    scopes: string | null;
} | undefined>;
export declare function insertKey(db: Executor, row: {
    account_id: number;
    name: string;
    prefix: string;
    secret_hash: string;
    scopes: string | null;
    rate_limit_per_minute: number | null;
    created_at: number;
}): Promise<{
    id: number;
}>;
/**
 * Revokes the key and, in the same transaction, tells every process's key cache (key-cache.ts).
 * Outside a transaction it also waits for the caches to drop it (awaitKeyCaches); a caller that
 * passes its own transaction calls that after its commit.
 */
export declare function revokeKey(db: Executor, id: number, at: number): Promise<boolean>;
export declare function findKeyById(db: Executor, id: number): Promise<{
    account_id: number;
    id: number;
    revoked_at: number | null;
} | undefined>;
export declare function touchKey(db: Executor, id: number, at: number): Promise<void>;
/** Revocations committed by this process: its key caches check the version again at once, even within one event-loop turn. */
export declare const localAuthChanges: {
    count: number;
};
/** The PostgreSQL channel a revocation notifies (on commit), so every process drops its key cache. */
export declare const AUTH_CHANNEL = "custops_auth";
/** The advisory lock every live PostgreSQL key cache holds shared ("auth" in ASCII). */
export declare const AUTH_LOCK = 1635087464;
/**
 * PostgreSQL, after a committed revocation: waits until every process's key cache has dropped
 * its keys (each lets go of its shared AUTH_LOCK once it has; this takes it exclusively, for an
 * instant). A process too stuck to answer within the time-out drops its keys when it reads the
 * notification; the revocation itself is committed either way, so the time-out is not an error.
 */
export declare function awaitKeyCaches(db: Executor): Promise<void>;
/**
 * Marks a change to who may authenticate, inside the transaction that makes it: the version row
 * moves (SQLite processes compare it on every request) and, on PostgreSQL, a NOTIFY reaches every
 * listening process when the transaction commits (never when it rolls back).
 */
export declare function markAuthChanged(trx: Executor): Promise<void>;
export declare function countAccountKeys(db: Executor, accountId: number, includeRevoked: boolean): Promise<number>;
/** Newest first. */
export declare function listAccountKeys(db: Executor, accountId: number, includeRevoked: boolean, limit: number, offset: number): Promise<{
    created_at: number;
    id: number;
    last_used_at: number | null;
    name: string;
    prefix: string;
    rate_limit_per_minute: number | null;
    revoked_at: number | null;
    scopes: string | null;
}[]>;
export declare function findAccountKey(db: Executor, accountId: number, id: number): Promise<{
    created_at: number;
    id: number;
    last_used_at: number | null;
    name: string;
    prefix: string;
    rate_limit_per_minute: number | null;
    revoked_at: number | null;
    scopes: string | null;
} | undefined>;
