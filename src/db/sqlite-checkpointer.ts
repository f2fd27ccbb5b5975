import { openSync, readSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints of a serving SQLite process on a thread of their own (docs/performance.md, "SQLite's
 * checkpoints off the event loop").
 *
 * SQLite copies the write-ahead log back into the database file in a checkpoint, by default inside
 * whichever commit takes the log past 1,000 pages: on the event loop, with two `fsync`s. Here a worker
 * thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` each time 1,000 frames wait to
 * be copied (a passive checkpoint never waits for, or holds up, the serving connection's readers and
 * writer), and the
 * serving connection keeps an automatic checkpoint of its own at `SAFETY_NET_PAGES`: under a steady
 * write load the thread's checkpoints always leave the newest frames behind, and SQLite starts the log
 * over only once every frame is copied, so the serving connection copies those few and lets the log
 * start over, once per `SAFETY_NET_PAGES` pages instead of once per 1,000.
 *
 * The thread (a V8 isolate with its connection: 10–25 MB of RSS) starts only once writes keep growing
 * the log (`#look`), so an idle or read-mostly process never has it, and it exits once the log has been
 * all copied back and has not moved for `IDLE_EXIT_MS`: its isolate is freed (4–5 MB of RSS given
 * back, measured; the rest stays in malloc's arenas), and the serving connection checkpoints by
 * itself again (SQLite's default) until writes keep growing the log once more. If the thread fails,
 * the serving connection checkpoints as before.
 */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's own automatic checkpoint threshold, kept until the thread runs. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
const LOOK_EVERY_MS = 1_000;
/** The thread exits after this long with nothing to copy and no new frame in the log. */
export const IDLE_EXIT_MS = 10_000;

// Plain JavaScript for an `eval` worker: no file to resolve in the TypeScript sources and in `dist`.
//
// Every 10 ms the thread reads how far the log runs ahead of the database file from the wal-index
// (the `-shm` file, through the process's one descriptor of it, `shmDescriptor`;
// sqlite.org/walformat.html: the log's last frame `mxFrame` at byte 16 of the
// header, the frames copied back `nBackfill` at byte 96). Reading it takes no lock and costs a few
// microseconds; a torn read only moves one checkpoint a little. It checkpoints when 1,000 frames wait
// (SQLite's own cadence, so as many checkpoints and `fsync`s as SQLite would make by itself), and
// once more after a second without writes, so that an idle log is all copied and the next write
// starts it over. If the wal-index cannot be read, it checkpoints every 100 ms instead. When the log
// has been all copied and has not moved for `idleExitMs`, it says so and exits.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const { readSync } = require('node:fs');
const db = new DatabaseSync(workerData.path);
const step = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const shm = workerData.shmFd; // the process's descriptor (see shmDescriptor): never closed here
const header = Buffer.alloc(100);
let stopping = false;
let lastFrame = -1;
let quietSince = Date.now();
let blind = 0;
parentPort.on('message', (m) => { if (m === 'stop') stopping = true; });
function waiting() {
  if (shm === null) return null;
  try {
    if (readSync(shm, header, 0, 100, 0) < 100) return null;
  } catch { return null; }
  const mxFrame = header.readUInt32LE(16);
  const nBackfill = header.readUInt32LE(96);
  if (mxFrame !== lastFrame) { lastFrame = mxFrame; quietSince = Date.now(); }
  return mxFrame > nBackfill ? mxFrame - nBackfill : 0;
}
function checkpoint() {
  const r = step.get();
  if (r.busy === 0 && r.checkpointed > 0) parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
}
function loop() {
  if (stopping) { db.close(); parentPort.close(); return; }
  try {
    const frames = waiting();
    if (frames === 0 && Date.now() - quietSince >= workerData.idleExitMs) {
      parentPort.postMessage({ idle: true });
      db.close();
      parentPort.close();
      return;
    }
    if (frames === null) {
      blind += 10;
      if (blind >= 100) { blind = 0; checkpoint(); }
    } else if (frames >= workerData.pages || (frames > 0 && Date.now() - quietSince >= 1000)) {
      checkpoint();
    }
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
    db.close();
    parentPort.close();
    return;
  }
  setTimeout(loop, 10);
}
loop();
`;

/**
 * One read-only descriptor of each database's wal-index (`-shm`) per process, opened once and never
 * closed: closing any descriptor of a file drops every POSIX lock the process holds on that file,
 * SQLite's own included. SQLite holds a shared lock on the wal-index to say "in use"; without it,
 * another process closing its last connection takes the file for unused and truncates it, and this
 * process, which maps it, dies of SIGBUS at its next access (seen: a `custops backup` beside a
 * `serve` that opened and closed the file on each look).
 */
const shmDescriptors = new Map<string, number>();

export function shmDescriptor(path: string): number | null {
  let fd = shmDescriptors.get(path);
  if (fd === undefined) {
    try {
      fd = openSync(`${path}-shm`, 'r');
    } catch {
      return null; // no wal-index yet
    }
    shmDescriptors.set(path, fd);
  }
  return fd;
}

/**
 * The write-ahead log now, from its wal-index header (the thread reads it the same way): `frames`, its
 * length (`mxFrame`, byte 16), `salt` (bytes 32–39), which changes each time the log starts over, and
 * `backfilled`, the frames copied back (`nBackfill`, byte 96). Null when there is no wal-index to read.
 */
export function logState(path: string): { frames: number; salt: string; backfilled: number } | null {
  const fd = shmDescriptor(path);
  if (fd === null) return null;
  const header = Buffer.alloc(100);
  if (readSync(fd, header, 0, 100, 0) < 100) return null;
  return { frames: header.readUInt32LE(16), salt: header.toString('hex', 32, 40), backfilled: header.readUInt32LE(96) };
}

/** How a connection gets the thread: `true` (serve, worker), or a lower start for tests. */
export type CheckpointerOption = boolean | { startAtPages: number; idleExitMs?: number };

export interface CheckpointerStats {
  /** The thread runs. */
  running: boolean;
  /** Times the thread started. */
  starts: number;
  /** Times it exited because the log stayed copied and still (`IDLE_EXIT_MS`). */
  idleExits: number;
  /** Checkpoints of the thread that copied frames back. */
  checkpoints: number;
  /** The thread's last error (it has then stopped, and the serving connection checkpoints by itself). */
  error: string | null;
}

export class SqliteCheckpointer {
  readonly #path: string;
  readonly #main: DatabaseSync;
  readonly #startAtPages: number;
  #last: { frames: number; salt: string } | null = null;
  #moved = false;
  #timer: NodeJS.Timeout | null = null;
  #worker: Worker | null = null;
  #exited: Promise<void> | null = null;
  #stopping = false;
  readonly stats: CheckpointerStats = { running: false, starts: 0, idleExits: 0, checkpoints: 0, error: null };
  readonly #idleExitMs: number;

  /** `startAtPages`: the log size (in pages) that starts the thread; `idleExitMs`: when it exits. Tests set them low. */
  constructor(path: string, main: DatabaseSync, options: { startAtPages?: number; idleExitMs?: number } = {}) {
    this.#path = path;
    this.#main = main;
    this.#startAtPages = options.startAtPages ?? DEFAULT_AUTOCHECKPOINT_PAGES;
    this.#idleExitMs = options.idleExitMs ?? IDLE_EXIT_MS;
    this.#watch();
  }

  /** Looks at the log every second until the thread starts. */
  #watch(): void {
    this.#last = null;
    this.#moved = false;
    this.#timer = setInterval(() => this.#look(), LOOK_EVERY_MS);
    this.#timer.unref();
  }

  /** Starts the thread if the log has grown to the threshold (called every second, and by tests). */
  look(): boolean {
    this.#look();
    return this.stats.running;
  }

  #look(): void {
    if (this.#worker || this.stats.error) return;
    // The log now, from the wal-index: the log file's size is its high point (SQLite writes over the
    // file when the log starts over), so it would start the thread for a log long once. The thread
    // starts when writes keep growing the log (any process's): it moved at this look and at the one
    // before (a second or more of writes: a burst, such as the migrations at start, pays SQLite's
    // own checkpoint instead of the thread's memory), and it is long, or started over since the
    // last look (before the thread, SQLite starts it over after its automatic checkpoint at 1,000
    // pages). A long log another process left, that nobody writes to, starts nothing.
    const now = logState(this.#path);
    if (!now) return;
    const last = this.#last;
    this.#last = now;
    if (!last) return;
    const restarted = now.salt !== last.salt;
    const moved = restarted || now.frames !== last.frames;
    const movedBefore = this.#moved;
    this.#moved = moved;
    if (moved && movedBefore && (restarted || now.frames >= this.#startAtPages)) this.#start();
  }

  #start(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    // No inherited flags: the source is a CommonJS script whatever the process was started with
    // (`--input-type=module` would make it a module), and the thread needs none of the process's.
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.#path, pages: DEFAULT_AUTOCHECKPOINT_PAGES, shmFd: shmDescriptor(this.#path), idleExitMs: this.#idleExitMs },
      execArgv: [],
    });
    worker.unref();
    this.#worker = worker;
    this.stats.running = true;
    this.stats.starts++;
    this.#main.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    let idle = false;
    worker.on('message', (m: { error?: string; idle?: true; log?: number; checkpointed?: number }) => {
      if (m.error) this.#failed(m.error);
      else if (m.idle) idle = true;
      else this.stats.checkpoints++;
    });
    worker.on('error', (err) => this.#failed(err.message));
    this.#exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.stats.running = false;
        if (idle && !this.#stopping && !this.stats.error) {
          // Quiet: SQLite's own checkpoints until writes keep growing the log again.
          this.#worker = null;
          this.stats.idleExits++;
          if (this.#main.isOpen) {
            this.#main.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
            this.#watch();
          }
        } else if (!this.#stopping && !this.stats.error) this.#failed(`the checkpoint thread exited (code ${code})`);
        resolve();
      }),
    );
  }

  #failed(message: string): void {
    this.stats.error = message;
    this.stats.running = false;
    // The serving connection checkpoints by itself again, as SQLite does by default.
    if (this.#main.isOpen) this.#main.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  /** Stops the thread after its current checkpoint and closes its connection (before the serving one's). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = null;
    this.#stopping = true;
    worker.postMessage('stop');
    worker.ref();
    const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5_000).unref());
    if ((await Promise.race([this.#exited, timeout])) === 'late') await worker.terminate();
  }
}
