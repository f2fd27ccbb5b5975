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
export declare function revokeKey(db: Executor, id: number, at: number): Promise<boolean>;
export declare function findKeyById(db: Executor, id: number): Promise<{
    account_id: number;
    id: number;
    revoked_at: number | null;
} | undefined>;
export declare function touchKey(db: Executor, id: number, at: number): Promise<void>;
