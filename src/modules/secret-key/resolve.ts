import { ConfigError, type Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { fingerprintOf, opens, readFingerprint, recordFingerprint, sampleCiphertext, shortFingerprint } from './fingerprint.ts';
import { createKeyFileOnce, generateKey, keyFileExists, keyFilePath, nextKeyFile, promoteNextKey, readKeyFile } from './key-file.ts';

export interface ResolvedKey {
  key: Buffer;
  source: 'env' | 'file' | 'memory';
  /** The key file (source `file`), for messages and rotation. */
  file: string | null;
}

/** What a message names: the variable, or the file. */
export const keyName = (k: Pick<ResolvedKey, 'source' | 'file'>) => (k.source === 'env' ? 'CUSTOPS_SECRET_KEY' : `secret key file ${k.file}`);

/**
 * The key that encrypts this database's secrets, checked against the fingerprint the database
 * records, before anything reads or writes a secret. `serve`, `worker`, `demo` and `secret-key
 * rotate` call it after migrating. It never generates a key over existing secrets: a SQLite key file
 * is created only for a database that has no fingerprint and holds no ciphertext.
 * Throws ConfigError (one line, naming CUSTOPS_SECRET_KEY or the key file) on any mismatch.
 */
export async function resolveSecretKey(config: Config, db: Db, now: number): Promise<ResolvedKey> {
  const stored = await readFingerprint(db);
  let resolved: ResolvedKey;
  if (config.secretKey) {
    resolved = { key: config.secretKey, source: 'env', file: null };
  } else if (config.dialect === 'postgres') {
    throw new ConfigError('CUSTOPS_SECRET_KEY', 'is required with PostgreSQL (32 bytes, hex or base64)');
  } else {
    const file = keyFilePath(config.databaseUrl, config.dataDir);
    if (file === null) {
      resolved = { key: generateKey(), source: 'memory', file: null };
    } else {
      // A rotation that committed but stopped before moving its new key into place is finished here.
      if (stored && keyFileExists(nextKeyFile(file)) && fingerprintOf(readKeyFile(nextKeyFile(file))) === stored) promoteNextKey(file);
      if (!keyFileExists(file)) {
        if (stored !== null || (await sampleCiphertext(db)) !== null) {
          throw new ConfigError(
            `secret key file ${file}`,
            `is missing, but this database holds secrets encrypted with key ${stored ? shortFingerprint(stored) : '(unrecorded)'}: ` +
              'restore the file from your backup or set CUSTOPS_SECRET_KEY to that key (a new key would make the secrets unreadable)',
          );
        }
        // Another process starting at the same moment may create it first: then both read that one.
        createKeyFileOnce(file, generateKey());
      }
      resolved = { key: readKeyFile(file), source: 'file', file };
    }
  }
  const fp = fingerprintOf(resolved.key);
  if (stored === null) {
    // A database from before fingerprints were recorded: the key must open what is stored before it is adopted.
    const sample = await sampleCiphertext(db);
    if (sample !== null && !opens(resolved.key, sample)) {
      throw new ConfigError(keyName(resolved), 'does not decrypt the secrets stored in this database: start with the key they were encrypted with');
    }
    const recorded = await recordFingerprint(db, fp, now);
    if (recorded !== fp) throw mismatch(resolved, fp, recorded);
  } else if (stored !== fp) {
    throw mismatch(resolved, fp, stored);
  }
  return resolved;
}

function mismatch(k: ResolvedKey, fp: string, stored: string): ConfigError {
  return new ConfigError(
    keyName(k),
    `is not the key this database's secrets are encrypted with (key ${shortFingerprint(fp)}, database ${shortFingerprint(stored)}): ` +
      'start with the original key (restore it from your backup); nothing was changed',
  );
}

/** The config with the resolved key in it, as every secret-reading part expects. */
export function withResolvedKey(config: Config, k: ResolvedKey): Config {
  return Object.freeze({ ...config, secretKey: k.key, secretKeySource: k.source === 'env' ? 'env' : 'file' });
}
