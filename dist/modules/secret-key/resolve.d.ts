import { type Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
export interface ResolvedKey {
    key: Buffer;
    source: 'env' | 'file' | 'memory';
    /** The key file (source `file`), for messages and rotation. */
    file: string | null;
}
/** What a message names: the variable, or the file. */
export declare const keyName: (k: Pick<ResolvedKey, 'source' | 'file'>) => string;
/**
 * The key that encrypts this database's secrets, checked against the fingerprint the database
 * records, before anything reads or writes a secret. `serve`, `worker`, `demo` and `secret-key
 * rotate` call it after migrating. It never generates a key over existing secrets: a SQLite key file
 * is created only for a database that has no fingerprint and holds no ciphertext.
 * Throws ConfigError (one line, naming CUSTOPS_SECRET_KEY or the key file) on any mismatch.
 */
export declare function resolveSecretKey(config: Config, db: Db, now: number): Promise<ResolvedKey>;
/** The config with the resolved key in it, as every secret-reading part expects. */
export declare function withResolvedKey(config: Config, k: ResolvedKey): Config;
