import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, sqlitePath, type DatabaseHandle } from '../../src/db/database.ts';
import { DEFAULT_AUTOCHECKPOINT_PAGES, logState, SAFETY_NET_PAGES } from '../../src/db/sqlite-checkpointer.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { startServer } from '../../src/server.ts';
import { until } from '../helpers/until.ts';

// SQLite's WAL checkpoints on a thread of their own (src/db/sqlite-checkpointer.ts).

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custops-ckpt-'));
  dirs.push(dir);
  return dir;
}

/** The log's length, the frames copied back and the salt that changes when it starts over (the wal-index, read through the checkpointer's one descriptor: no lock is dropped). */
function walIndex(path: string): { mxFrame: number; nBackfill: number; salt: string } {
  const state = logState(path);
  assert.ok(state, 'a wal-index');
  return { mxFrame: state.frames, nBackfill: state.backfilled, salt: state.salt };
}

function raw(h: DatabaseHandle): DatabaseSync {
  assert.ok(h.sqlite);
  return h.sqlite.raw;
}

/** A new database with the checkpointer (starting at `startAtPages`, exiting after `idleExitMs` quiet) and the test's table. */
function withTable(startAtPages: number, idleExitMs?: number): { path: string; h: DatabaseHandle; db: DatabaseSync } {
  const path = join(scratch(), 'c.db');
  const h = openDatabase(`sqlite:${path}`, { sqliteCheckpointer: { startAtPages, idleExitMs } });
  const db = raw(h);
  db.exec('create table t (id integer primary key, v blob)');
  return { path, h, db };
}

function writeRows(db: DatabaseSync, from: number, count: number): void {
  const insert = db.prepare('insert into t (id, v) values (?, ?)');
  for (let i = from; i < from + count; i++) {
    db.exec('begin immediate');
    insert.run(i, randomBytes(3000));
    db.exec('commit');
  }
}

/** The table's rows and the file's integrity, read by a new connection after the test's has closed. */
function reopened(path: string): { n: number; lo: number; hi: number; integrity: string } {
  const db = new DatabaseSync(path);
  try {
    const { n, lo, hi } = db.prepare('select count(*) n, min(id) lo, max(id) hi from t').get() as { n: number; lo: number; hi: number };
    const { integrity_check } = db.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
    return { n: Number(n), lo: Number(lo), hi: Number(hi), integrity: integrity_check };
  } finally {
    db.close();
  }
}

describe('SQLite checkpoints on a thread of their own', () => {
  test('the thread starts once the log has grown, copies the log back while the serving connection only commits, and the log starts over', async () => {
    const { path, h, db } = withTable(40);
    try {
      const checkpointer = h.sqlite?.checkpointer;
      assert.ok(checkpointer);
      assert.equal(checkpointer.look(), false);
      writeRows(db, 1, 10);
      assert.equal(checkpointer.look(), false, 'a short log starts no thread');
      writeRows(db, 11, 30);
      assert.equal(checkpointer.look(), true, 'a log of 40 pages, growing since the last two looks, starts the thread');
      assert.equal(Number((db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint), SAFETY_NET_PAGES);

      // Well below the serving connection's own threshold: only the thread can copy these back.
      writeRows(db, 41, 1500);
      const written = walIndex(path).mxFrame;
      assert.ok(written >= 1500 && written < SAFETY_NET_PAGES, `log of ${written} frames`);
      await until('the thread to copy the log back', () => walIndex(path).nBackfill === walIndex(path).mxFrame && checkpointer.stats.checkpoints > 0);
      // Every frame is back in the database file: the next write starts the log over.
      writeRows(db, 41 + 1500, 1);
      assert.ok(walIndex(path).mxFrame < 10, `the log started over (${walIndex(path).mxFrame} frames)`);
      assert.equal(checkpointer.stats.error, null);
    } finally {
      await h.close();
    }
    assert.deepEqual(reopened(path), { n: 1541, lo: 1, hi: 1541, integrity: 'ok' });
  });

  test('a thread with the log all copied and still exits (its isolate is freed); SQLite checkpoints by itself until writes keep growing the log, and the thread starts again', async () => {
    const { path, h, db } = withTable(40, 300);
    let next = 41;
    const autocheckpoint = () => Number((db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint);
    try {
      const checkpointer = h.sqlite?.checkpointer;
      assert.ok(checkpointer);
      checkpointer.look();
      writeRows(db, 1, 20);
      checkpointer.look();
      writeRows(db, 21, 20);
      assert.equal(checkpointer.look(), true);
      assert.equal(checkpointer.stats.starts, 1);
      assert.equal(autocheckpoint(), SAFETY_NET_PAGES);
      // No more writes: a second later the thread copies the rest back, and it exits once the log has been still for 300 ms.
      await until('the thread to exit', () => !checkpointer.stats.running, 10_000);
      assert.equal(checkpointer.stats.idleExits, 1);
      assert.equal(checkpointer.stats.error, null, 'an exit when quiet is no failure');
      const log = walIndex(path);
      assert.ok(log.mxFrame > 0 && log.nBackfill === log.mxFrame, `every frame copied back before the exit: ${JSON.stringify(log)}`);
      assert.equal(autocheckpoint(), DEFAULT_AUTOCHECKPOINT_PAGES, "the serving connection's own checkpoints are back");

      // Writes again, and nobody calls look(): the checkpointer's own once-a-second looks see the log
      // start over and keep growing, and start the thread again.
      while (checkpointer.stats.starts < 2) {
        assert.ok(next < 41 + 5 * 300, 'the thread starts again within about five seconds of writes');
        writeRows(db, next, 5);
        next += 5;
        await sleep(100);
      }
      assert.equal(checkpointer.stats.running, true);
      assert.equal(autocheckpoint(), SAFETY_NET_PAGES);
      const byTheFirst = checkpointer.stats.checkpoints;
      await until(
        'a checkpoint of the second thread',
        () => checkpointer.stats.checkpoints > byTheFirst && walIndex(path).nBackfill === walIndex(path).mxFrame,
        10_000,
      );
    } finally {
      await h.close();
    }
    assert.deepEqual(reopened(path), { n: next - 1, lo: 1, hi: next - 1, integrity: 'ok' });
  });

  test('a log that started over since the last look (SQLite checkpointed it by itself) starts the thread too', async () => {
    // A threshold above SQLite's own 1,000 pages: the log never gets that long before the thread.
    const { path, h, db } = withTable(5_000);
    try {
      assert.equal(h.sqlite?.checkpointer?.look(), false);
      writeRows(db, 1, 200);
      assert.equal(h.sqlite?.checkpointer?.look(), false, 'growing, but short and not started over');
      const before = walIndex(path).salt;
      writeRows(db, 201, 400); // past 1,000 frames: SQLite's automatic checkpoint, and the log starts over
      assert.notEqual(walIndex(path).salt, before, 'the log started over');
      assert.equal(h.sqlite?.checkpointer?.look(), true);
    } finally {
      await h.close();
    }
  });

  test('a long log that nobody writes to (another connection left it) starts nothing until writes grow it', async () => {
    const path = join(scratch(), 'c.db');
    const other = new DatabaseSync(path);
    other.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; create table t (id integer primary key, v blob)');
    writeRows(other, 1, 100); // about 200 frames, left in the log while this connection stays open
    const h = openDatabase(`sqlite:${path}`, { sqliteCheckpointer: { startAtPages: 40 } });
    try {
      assert.ok(walIndex(path).mxFrame >= 40);
      assert.equal(h.sqlite?.checkpointer?.look(), false);
      assert.equal(h.sqlite?.checkpointer?.look(), false, 'a long log that does not move');
      writeRows(raw(h), 101, 1);
      assert.equal(h.sqlite?.checkpointer?.look(), false, 'one write: a burst');
      writeRows(raw(h), 102, 1);
      assert.equal(h.sqlite?.checkpointer?.look(), true, 'the same log, still growing');
    } finally {
      await h.close();
      other.close();
    }
  });

  test('under writes that never pause, the log stays bounded (the serving connection lets it start over at the safety net)', async () => {
    const { path, h, db } = withTable(40);
    try {
      h.sqlite?.checkpointer?.look();
      writeRows(db, 1, 20);
      h.sqlite?.checkpointer?.look();
      writeRows(db, 21, 20);
      assert.equal(h.sqlite?.checkpointer?.look(), true);
      const pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
      // Three times the safety net's rows (two or more pages each), with no turn of the event loop in
      // between, the log's length read after every commit. Without the serving connection's own checkpoint
      // at the safety net the log would never be all copied, never start over, and end past 90,000 pages
      // (measured: 91,845). With it, the log starts over once it has passed the net, as soon as a checkpoint
      // of the thread's in progress ends (that one makes the serving connection's busy): these writes, about
      // 20 µs a commit, add thousands of pages while it runs on a loaded machine (up to 5,400 measured with
      // every core busy), so the bound is twice the net.
      let longest = 0;
      let startsOver = 0;
      let previous = walIndex(path).mxFrame;
      for (let from = 41; from < 41 + 3 * SAFETY_NET_PAGES; from += 1) {
        writeRows(db, from, 1);
        const frames = walIndex(path).mxFrame;
        if (frames < previous) startsOver++;
        longest = Math.max(longest, frames);
        previous = frames;
      }
      assert.ok(longest < 2 * SAFETY_NET_PAGES, `the log reached ${longest} pages`);
      assert.ok(startsOver >= 3, `the log started over ${startsOver} times`);
      assert.ok(statSync(`${path}-wal`).size <= 32 + 2 * SAFETY_NET_PAGES * (pageSize + 24), 'the file holds no longer log');
    } finally {
      await h.close();
    }
    assert.deepEqual(reopened(path), { n: 40 + 3 * SAFETY_NET_PAGES, lo: 1, hi: 40 + 3 * SAFETY_NET_PAGES, integrity: 'ok' });
  });

  test('a process killed while its thread checkpoints leaves a sound database with every acknowledged commit', async () => {
    const dir = scratch();
    const path = join(dir, 'c.db');
    const setup = new DatabaseSync(path);
    setup.exec('PRAGMA journal_mode = WAL; create table t (id integer primary key, v blob)');
    setup.close();
    // A real process: commits one row at a time and says which it has committed, its thread copying back.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
        import { openDatabase } from ${JSON.stringify(new URL('../../src/db/database.ts', import.meta.url).href)};
        import { randomBytes } from 'node:crypto';
        const h = openDatabase(${JSON.stringify(`sqlite:${path}`)}, { sqliteCheckpointer: { startAtPages: 40 } });
        const db = h.sqlite.raw;
        const insert = db.prepare('insert into t (id, v) values (?, ?)');
        let id = 0;
        const step = () => {
          for (let i = 0; i < 200; i++) { db.exec('begin immediate'); insert.run(++id, randomBytes(3000)); db.exec('commit'); }
          h.sqlite.checkpointer.look();
          process.stdout.write(id + ' ' + h.sqlite.checkpointer.stats.checkpoints + '\\n');
          // Never killed (the thread did not copy back): stop, and let the test fail, rather than fill the disk.
          if (id < 60000 && !h.sqlite.checkpointer.stats.error) setImmediate(step);
          else process.stdout.write('gave up ' + JSON.stringify(h.sqlite.checkpointer.stats) + '\\n', () => process.exit(3));
        };
        step();
        `,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let acknowledged = 0;
    let lines = '';
    const killed = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        lines += chunk.toString();
        const all = lines.trim().split('\n');
        if (all[all.length - 1].startsWith('gave up')) return;
        const [id, checkpoints] = all[all.length - 1].split(' ').map(Number);
        acknowledged = id;
        // Killed once the thread has copied back a few times and the log is long again.
        if (checkpoints >= 5 && id > 20_000 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', () => resolve());
    });
    await killed;
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null)));
    assert.equal(child.signalCode, 'SIGKILL', `the process was killed, not finished: ${lines.slice(-300)}`);
    const { n, lo, hi, integrity } = reopened(path);
    assert.equal(integrity, 'ok');
    assert.ok(hi >= acknowledged, `rows up to ${hi}, ${acknowledged} acknowledged`);
    assert.deepEqual([lo, n], [1, hi], 'no hole in the committed rows');
  });

  test("serve: writes through the API start the thread, and /metrics reports it; CUSTOPS_SQLITE_CHECKPOINT_THREAD=0 keeps SQLite's own checkpoints", async () => {
    const TOKEN = randomBytes(12).toString('hex');
    for (const setting of [undefined, '0'] as const) {
      const config = loadConfig({
        DATABASE_URL: `sqlite:${join(scratch(), 's.db')}`,
        CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
        CUSTOPS_METRICS_TOKEN: TOKEN,
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        ...(setting === undefined ? {} : { CUSTOPS_SQLITE_CHECKPOINT_THREAD: setting }),
      });
      const server = await startServer(config, { logger: false });
      try {
        const checkpointer = server.database.sqlite?.checkpointer ?? null;
        assert.equal(checkpointer !== null, setting === undefined);
        checkpointer?.look(); // the log before the writes (the thread starts when writes keep growing it)
        const deps = { db: server.database.db, clock: systemClock };
        const { account } = await createAccount(deps, { name: 'Checkpoints' });
        const key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 1_000_000 })).secret;
        const path = sqlitePath(config.databaseUrl);
        let n = 0;
        const createOrg = async () => {
          const res = await fetch(`${server.url}/api/v1/orgs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Org ${n++} ${'x'.repeat(150)}` }),
          });
          assert.equal(res.status, 201);
        };
        // Writes through the API until the log file has held 1,000 pages (its size is its high point).
        while ((statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) < 1_000 * (4096 + 24)) {
          assert.ok(n < 5_000, 'the log grows with writes');
          await createOrg();
        }
        const metrics = async () => {
          const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
          assert.equal(res.status, 200);
          return (await res.text()).split('\n');
        };
        if (checkpointer) {
          // Writes that go on: the log starts over (SQLite's own checkpoint) and keeps growing. The
          // thread starts at the second look in a row that sees the log moved; the once-a-second look
          // may fall between a look here and the next write (it then saw nothing move), so the writes
          // go on, a look after each round of them, until one starts it.
          checkpointer.look();
          let rounds = 0;
          do {
            assert.ok(rounds++ < 4, 'writes that go on start the thread');
            for (let i = 0; i < 20; i++) await createOrg();
          } while (!checkpointer.look());
          assert.equal(checkpointer.stats.starts, 1);
          // More writes, then the thread copies them back (at 1,000 frames, or after a quiet second).
          for (let i = 0; i < 150; i++) await createOrg();
          await until('a checkpoint of the thread', () => checkpointer.stats.checkpoints > 0);
          const lines = await metrics();
          assert.ok(lines.includes('custops_sqlite_checkpoint_thread 1'), lines.join('\n'));
          assert.ok(lines.includes('custops_sqlite_checkpoint_thread_failed 0'));
          assert.ok(lines.some((l) => /^custops_sqlite_checkpoints_total [1-9]\d*$/.test(l)));
        } else {
          assert.ok(!(await metrics()).some((l) => l.startsWith('custops_sqlite_checkpoint')));
        }
      } finally {
        await server.stop();
      }
    }
  });
});
