import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import * as pgBatch from './dispatch.postgres.ts';
import * as sqliteBatch from './dispatch.sqlite.ts';
import * as repo from './dispatch.repository.ts';

const MAX_BATCH = 200;
/** Records wait this long for company: a few ms on the record, not on the receiver's clock. */
const FLUSH_DELAY_MS = 2;

/**
 * Group commit for attempt records: the records that finish within a couple of milliseconds
 * (and while a write is running) share one transaction, so the database work per delivery shrinks
 * as the load grows. Each caller still learns whether its own record was written.
 */
export class RecordQueue {
  readonly #db: Db;
  readonly #queue: (repo.PendingRecord & { done: (err?: unknown) => void })[] = [];
  #scheduled = false;
  #flushing: Promise<void> | null = null;

  constructor(db: Db) {
    this.#db = db;
  }

  add(record: repo.AttemptRecord, decide: repo.PendingRecord['decide']): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, decide, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.#scheduled && !this.#flushing) {
        this.#scheduled = true;
        setTimeout(() => {
          this.#scheduled = false;
          this.#flushing ??= this.#flush().finally(() => (this.#flushing = null));
        }, FLUSH_DELAY_MS);
      }
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      try {
        await this.#record(batch);
        for (const item of batch) item.done();
      } catch (err) {
        for (const item of batch) item.done(err);
      }
    }
  }

  /**
   * The common case, successes, is written by each engine's own statements (one on PostgreSQL,
   * prepared ones in one transaction on SQLite); failures (retry schedule, endpoint failure streak,
   * auto-disable) and any delivery changed since its claim go the general way, which reads the
   * current state in its transaction first.
   */
  async #record(batch: repo.PendingRecord[]): Promise<void> {
    let rest = batch;
    const sent = batch.filter((i) => i.record.error === null);
    if (sent.length) {
      const recordSent = engineOf(this.#db).multiTableStatements ? pgBatch.recordSent : sqliteBatch.recordSent;
      const written = await recordSent(
        this.#db,
        sent.map(({ record: r }) => ({
          deliveryId: r.deliveryId,
          accountId: r.accountId,
          previousAttempts: r.previousAttempts,
          trigger: r.trigger,
          statusCode: r.statusCode,
          responseBody: r.responseBody,
          durationMs: r.durationMs,
          requestedAt: r.requestedAt,
        })),
      );
      rest = batch.filter((i) => !written.has(i.record.deliveryId));
    }
    await repo.recordAttempts(this.#db, rest);
  }
}
