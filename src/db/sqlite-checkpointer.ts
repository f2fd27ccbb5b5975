import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints of a serving SQLite process on a thread of their own (docs/performance.md, "SQLite's
 * checkpoints off the event loop").
 *
 * SQLite copies the write-ahead log back into the database file in a checkpoint, by default inside
 * whichever commit takes the log past 1,000 pages: on the event loop, with two `fsync`s. Here a worker
 * thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` while the log grows (a passive
 * checkpoint never waits for, or holds up, the serving connection's readers and writer), and the
 * serving connection keeps an automatic checkpoint of its own at `SAFETY_NET_PAGES`: under a steady
 * write load the thread's checkpoints always leave the newest frames behind, and SQLite starts the log
 * over only once every frame is copied, so the serving connection copies those few and lets the log
 * start over, once per `SAFETY_NET_PAGES` pages instead of once per 1,000.
 *
 * The thread (a V8 isolate: about 20 MB) starts only once the log has reached 1,000 pages, so an idle
 * or read-mostly process never has it. If it fails, the serving connection checkpoints as before.
 */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's own automatic checkpoint threshold, kept until the thread runs. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
const LOOK_EVERY_MS = 1_000;

// Plain JavaScript for an `eval` worker: no file to resolve in the TypeScript sources and in `dist`.
// Polls every 5 ms while the log grows (a checkpoint that copies frames takes longer than that, its
// two fsyncs included), backing off to once a second while it does not.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
const step = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let stopping = false;
let wait = 5;
let last = '';
parentPort.on('message', (m) => { if (m === 'stop') stopping = true; });
function loop() {
  if (stopping) { db.close(); parentPort.close(); return; }
  let r;
  try { r = step.get(); } catch (err) { parentPort.postMessage({ error: String((err && err.message) || err) }); db.close(); parentPort.close(); return; }
  const now = r.log + ':' + r.checkpointed;
  const moved = now !== last;
  last = now;
  if (moved && r.checkpointed > 0) parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  wait = moved ? 5 : Math.min(1000, wait * 2);
  setTimeout(loop, wait);
}
loop();
`;

export interface CheckpointerStats {
  /** The thread runs. */
  running: boolean;
  /** Checkpoints of the thread that found the log moved on (frames copied, or a log started over). */
  checkpoints: number;
  /** The thread's last error (it has then stopped, and the serving connection checkpoints by itself). */
  error: string | null;
}

export class SqliteCheckpointer {
  readonly #path: string;
  readonly #main: DatabaseSync;
  readonly #startAtBytes: number;
  #timer: NodeJS.Timeout | null = null;
  #worker: Worker | null = null;
  #exited: Promise<void> | null = null;
  #stopping = false;
  readonly stats: CheckpointerStats = { running: false, checkpoints: 0, error: null };

  /** `startAtPages`: the log size (in pages) that starts the thread; tests set it low. */
  constructor(path: string, main: DatabaseSync, options: { startAtPages?: number } = {}) {
    this.#path = path;
    this.#main = main;
    const pageSize = Number((main.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
    this.#startAtBytes = (options.startAtPages ?? DEFAULT_AUTOCHECKPOINT_PAGES) * pageSize;
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
    let size = 0;
    try {
      size = statSync(`${this.#path}-wal`).size;
    } catch {
      return; // no log yet
    }
    if (size >= this.#startAtBytes) this.#start();
  }

  #start(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    // No inherited flags: the source is a CommonJS script whatever the process was started with
    // (`--input-type=module` would make it a module), and the thread needs none of the process's.
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.#path }, execArgv: [] });
    worker.unref();
    this.#worker = worker;
    this.stats.running = true;
    this.#main.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    worker.on('message', (m: { error?: string; log?: number; checkpointed?: number }) => {
      if (m.error) this.#failed(m.error);
      else this.stats.checkpoints++;
    });
    worker.on('error', (err) => this.#failed(err.message));
    this.#exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.stats.running = false;
        if (!this.#stopping && !this.stats.error) this.#failed(`the checkpoint thread exited (code ${code})`);
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
