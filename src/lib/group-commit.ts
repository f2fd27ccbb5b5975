import type { Db, Trx } from '../db/database.ts';
import { translateDatabaseError } from '../db/errors.ts';
import { sqliteConnectionOf } from '../db/prepared.ts';
import type { NodeSqliteDatabase } from '../db/sqlite-driver.ts';

/** At most this many writes share one commit (failed ones counted). */
const MAX_WRITES = 16;
/** A group takes no more writes once it has run this long, so reads waiting for the connection get in. */
const MAX_GROUP_MS = 3;

interface Job {
  work: (trx: Trx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

const groups = new WeakMap<Db, GroupCommit>();

/**
 * Group commit for SQLite's one connection (docs/design.md#the-write-path): the writes waiting
 * for the connection when one commits share the next transaction, each inside a savepoint of its
 * own, and one COMMIT. A write that fails rolls back to its savepoint alone and the others go on;
 * no write is answered before the commit that holds it. If the transaction itself is lost (SQLite
 * rolls back by itself on a full disk or an I/O error) or its commit fails, every write of the
 * group fails with that error, as each would have alone.
 */
export class GroupCommit {
  readonly #db: Db;
  readonly #connection: NodeSqliteDatabase;
  readonly #queue: Job[] = [];
  #running = false;

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
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) await this.#group();
    } finally {
      this.#running = false;
    }
  }

  async #group(): Promise<void> {
    const done: [Job, unknown][] = [];
    let entered = false;
    const raw = this.#connection.raw;
    try {
      await this.#db.transaction().execute(async (trx) => {
        entered = true;
        const started = performance.now();
        let taken = 0;
        const room = () => taken < MAX_WRITES && performance.now() - started < MAX_GROUP_MS;
        for (;;) {
          // Before committing, one turn of the event loop: the requests already read off the sockets
          // reach their write and join this commit. All within the group's caps.
          if (this.#queue.length === 0 && room()) await new Promise((resolve) => setImmediate(resolve));
          if (this.#queue.length === 0 || (taken > 0 && !room())) return;
          const job = this.#queue.shift()!;
          taken++;
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
      // the waiting writes fail as each one's own BEGIN would have.
      if (!entered) for (const job of this.#queue.splice(0)) job.reject(failed);
      return;
    }
    for (const [job, value] of done) job.resolve(value);
  }
}
