import type { Db, Trx } from '../db/database.ts';
import { translateDatabaseError } from '../db/errors.ts';
import { sqliteConnectionOf } from '../db/prepared.ts';
import type { NodeSqliteDatabase } from '../db/sqlite-driver.ts';

/** At most this many writes share one commit. */
const MAX_WRITES = 16;

interface Job {
  work: (trx: Trx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

const groups = new WeakMap<Db, GroupCommit>();

/**
 * Group commit for SQLite's one connection (docs/design.md#the-write-path). A write waits one turn
 * of the event loop before its transaction begins, so that the requests already read off the
 * sockets reach their write too; the writes then waiting share one transaction (at most
 * MAX_WRITES), each inside a savepoint of its own, and one COMMIT. The lock is taken only once the
 * group is made: it is held for the writes' own work, never while waiting for more, so other
 * processes' writers and this process's reads find it free as often as before. A write that fails
 * rolls back to its savepoint alone and the others go on; no write is answered before the commit
 * that holds it. If the transaction itself is lost (SQLite rolls back by itself on a full disk or
 * an I/O error), the writes of the group that ran fail with that error, as each would have alone,
 * and the ones not yet run go to the next group; if its BEGIN or COMMIT fails, every write of the
 * group fails with that error.
 */
export class GroupCommit {
  readonly #db: Db;
  readonly #connection: NodeSqliteDatabase;
  readonly #queue: Job[] = [];
  #running = false;
  #scheduled = false;

  private constructor(db: Db, connection: NodeSqliteDatabase) {
    this.#db = db;
    this.#connection = connection;
  }

  /** The database's group commit; null where the engine has a connection per transaction (PostgreSQL). */
  static of(db: Db): GroupCommit | null {
    let group = groups.get(db);
    if (!group) {
      const connection = sqliteConnectionOf(db);
      if (!connection) return null;
      group = new GroupCommit(db, connection);
      groups.set(db, group);
    }
    return group;
  }

  /** Runs `work` in a transaction shared with the writes waiting beside it; resolves once that transaction has committed. */
  run<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          void this.#drain();
        });
      }
    });
  }

  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#queue.length > 0) await this.#group(this.#queue.splice(0, MAX_WRITES));
    } finally {
      this.#running = false;
    }
  }

  async #group(jobs: Job[]): Promise<void> {
    const done: [Job, unknown][] = [];
    let entered = false;
    let next = 0;
    const raw = this.#connection.raw;
    try {
      await this.#db.transaction().execute(async (trx) => {
        entered = true;
        while (next < jobs.length) {
          const job = jobs[next++];
          try {
            raw.exec('SAVEPOINT custops_write');
          } catch (err) {
            job.reject(translateDatabaseError(err));
            throw err;
          }
          let value: unknown;
          try {
            value = await job.work(trx);
          } catch (err) {
            job.reject(err);
            // The transaction is gone (SQLite rolls back by itself on a full disk or an I/O error): so
            // are the group's earlier writes, which then fail with it.
            if (!raw.isTransaction) throw err;
            raw.exec('ROLLBACK TO custops_write');
            raw.exec('RELEASE custops_write');
            continue;
          }
          done.push([job, value]);
          raw.exec('RELEASE custops_write');
        }
      });
    } catch (err) {
      const failed = translateDatabaseError(err);
      for (const [job] of done) job.reject(failed);
      // The transaction did not begin (another process held the write lock past the busy time-out):
      // the group's writes fail as each one's own BEGIN would have. Lost midway: the writes not yet
      // run go first into the next group.
      if (!entered) for (const job of jobs) job.reject(failed);
      else this.#queue.unshift(...jobs.slice(next));
      return;
    }
    for (const [job, value] of done) job.resolve(value);
  }
}
