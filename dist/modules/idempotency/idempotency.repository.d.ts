import type { Executor } from '../../db/database.ts';
export declare function claimKey(db: Executor, row: {
    account_id: number;
    key: string;
    request_hash: string;
    created_at: number;
    expires_at: number;
}): Promise<number | null>;
export declare function findKey(db: Executor, accountId: number, key: string): Promise<{
    account_id: number;
    committed_at: number | null;
    created_at: number;
    expires_at: number;
    id: number;
    key: string;
    location: string | null;
    request_hash: string;
    response_body: string | null;
    response_status: number | null;
    state: "done" | "running";
} | undefined>;
/** Takes over an expired or abandoned record, only if it is still the one we looked at. */
export declare function retakeKey(db: Executor, id: number, seenCreatedAt: number, row: {
    request_hash: string;
    created_at: number;
    expires_at: number;
}): Promise<boolean>;
export declare function completeKey(db: Executor, id: number, status: number, body: string, location: string | null): Promise<void>;
export declare function releaseKey(db: Executor, id: number): Promise<void>;
export declare function purgeExpiredKeys(db: Executor, now: number): Promise<number>;
