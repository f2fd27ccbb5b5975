import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeSecretKey } from '../../config.ts';
import { sqlitePath } from '../../db/database.ts';

/**
 * Where SQLite mode keeps its generated key: `secret.key` beside the database file (so starting from
 * another directory finds the same key), or in CUSTOPS_DATA_DIR when that is set. An in-memory
 * database has none (its secrets die with it). PostgreSQL mode never uses a file.
 */
export function keyFilePath(databaseUrl: string, dataDir: string | null): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  if (dataDir) return join(dataDir, 'secret.key');
  const path = sqlitePath(databaseUrl);
  return path === ':memory:' ? null : join(dirname(path), 'secret.key');
}

/** The file a rotation writes first; it becomes the key file once the re-encryption has committed. */
export const nextKeyFile = (file: string) => `${file}.next`;

export function readKeyFile(file: string): Buffer {
  return decodeSecretKey(readFileSync(file, 'utf8'), `secret key file ${file}`);
}

export function generateKey(): Buffer {
  return randomBytes(32);
}

/** Writes a key file durably (mode 0600). `exclusive` refuses to replace an existing file. */
export function writeKeyFile(file: string, key: Buffer, exclusive: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, exclusive ? 'wx' : 'w', 0o600);
  try {
    writeSync(fd, key.toString('base64') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the key file with `key` unless one exists, atomically: the key is written to a file of
 * this process's own and linked into place, so a process starting at the same moment either
 * creates it or finds it complete, never empty or half-written, and both then read the same key.
 * Returns whether this call created it.
 */
export function createKeyFileOnce(file: string, key: Buffer): boolean {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeKeyFile(own, key, true);
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(own, { force: true });
  }
}

/** Moves the rotated key into place (atomic rename on one file system). */
export function promoteNextKey(file: string): void {
  renameSync(nextKeyFile(file), file);
}

export const keyFileExists = (file: string) => existsSync(file);
