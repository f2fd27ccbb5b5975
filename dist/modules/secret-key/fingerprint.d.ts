import type { Db, Executor } from '../../db/database.ts';
export declare const FINGERPRINT_SETTING = "secret_key_fingerprint";
/**
 * A key's fingerprint: SHA-256 over a label and the 32 key bytes. The key is random, so the hash
 * reveals nothing usable; it only tells one key from another.
 */
export declare function fingerprintOf(key: Buffer): string;
/** The first 16 hex digits, as messages show it. */
export declare const shortFingerprint: (fp: string) => string;
export declare function readFingerprint(db: Executor): Promise<string | null>;
/** Records the fingerprint unless one is there already (two processes may start at once); answers the one recorded. */
export declare function recordFingerprint(db: Db, fp: string, now: number): Promise<string>;
export declare function replaceFingerprint(trx: Executor, fp: string, now: number): Promise<void>;
/** One stored ciphertext, if the database holds any: a webhook signing secret or a sealed idempotent response. */
export declare function sampleCiphertext(db: Executor): Promise<string | null>;
export declare function opens(key: Buffer, ciphertext: string): boolean;
