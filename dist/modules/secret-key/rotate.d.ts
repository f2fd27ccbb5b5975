import type { Db } from '../../db/database.ts';
import type { ResolvedKey } from './resolve.ts';
export interface RotationResult {
    webhook_endpoints: number;
    idempotency_responses: number;
    fingerprint: string;
    /** The key file now holding the new key (SQLite, generated key). */
    key_file: string | null;
    /** The new key (base64), printed when it lives in CUSTOPS_SECRET_KEY: the operator must store it. */
    secret_key: string | null;
}
/**
 * `custops secret-key rotate`: re-encrypts every stored secret (webhook signing secrets, current and
 * previous, and sealed idempotent responses) under a new key, and records the new fingerprint, in one
 * transaction: it all moves or nothing does. With a key file, the new key is written durably to
 * `secret.key.next` first and moved into place after the commit; a crash in between is finished by the
 * next start (resolveSecretKey adopts the `.next` file when the database records its fingerprint).
 * With CUSTOPS_SECRET_KEY the new key is answered, for the operator to put in place of the old one.
 * Processes still running with the old key cannot read the secrets afterwards: stop them first.
 */
export declare function rotateSecretKey(db: Db, current: ResolvedKey, now: number, newKey?: Buffer): Promise<RotationResult>;
