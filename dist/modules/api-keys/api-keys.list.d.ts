import type { Db } from '../../db/database.ts';
export interface ListedKey {
    id: number;
    name: string;
    /** The first characters of the secret, to tell keys apart; the secret itself is never stored. */
    prefix: string;
    scopes: string[];
    rate_limit_per_minute: number | null;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
}
/** `custops key list --account ID`: every key of the account, newest first, revoked ones included; no secrets. */
export declare function listApiKeys(db: Db, accountId: number): Promise<{
    data: ListedKey[];
}>;
