import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';

export class BackupError extends Error {}

export interface BackupResult {
  backup: string;
  bytes: number;
  pages: number;
  duration_ms: number;
  integrity: 'ok';
}

/** One step copies every page: larger than any SQLite database can be (2^31 - 1 pages). */
const ALL_PAGES = 2 ** 31 - 1;

/**
 * A consistent online copy of a SQLite database with SQLite's backup API, while other processes
 * keep writing. The copy is made in a single backup step, so it reads one snapshot (one read
 * transaction: in WAL mode writers carry on meanwhile) instead of restarting each time another
 * connection commits between steps. It is written beside the target under a temporary name,
 * checked (`PRAGMA quick_check`), flushed to disk and renamed into place, so `target` is
 * either a whole, checked backup or absent.
 */
export async function backupSqlite(sourcePath: string, target: string, busyTimeoutMs = 5000): Promise<BackupResult> {
  const started = Date.now();
  const to = resolve(target);
  if (sourcePath === ':memory:') throw new BackupError('an in-memory database has nothing to back up');
  if (!existsSync(sourcePath)) throw new BackupError(`no database at ${sourcePath}`);
  if (existsSync(to)) throw new BackupError(`${to} already exists; name a new file (a backup never overwrites)`);
  if (!existsSync(dirname(to))) throw new BackupError(`the folder ${dirname(to)} does not exist`);
  const partial = `${to}.partial-${process.pid}`;
  const source = new DatabaseSync(sourcePath);
  try {
    source.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    const pages = await backup(source, partial, { rate: ALL_PAGES });
    const copy = new DatabaseSync(partial);
    let verdict: string;
    try {
      verdict = String((copy.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check);
    } finally {
      copy.close();
    }
    if (verdict !== 'ok') throw new BackupError(`the copy failed its integrity check: ${verdict}`);
    syncFile(partial);
    renameSync(partial, to);
    syncFile(dirname(to));
    return { backup: to, bytes: statSync(to).size, pages, duration_ms: Date.now() - started, integrity: 'ok' };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    source.close();
  }
}

/** fsync a file or a folder (the rename itself is durable only once its folder is synced). */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
