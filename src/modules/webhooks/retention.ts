import { sql, type SelectQueryBuilder } from 'kysely';
import { Counter } from 'prom-client';
import type { Config } from '../../config.ts';
import type { Db, Trx } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { databaseUnavailable } from '../../db/errors.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { dispatcherRegistry } from './metrics.ts';

/**
 * Webhook retention (`CUSTOPS_WEBHOOK_RETENTION_DAYS`): deliveries that are finished and whose last
 * activity is older than the window go, with their attempts; then events older than the window
 * that were fanned out and have no delivery left. So a delivery still to be attempted (pending,
 * retrying, or asked for again) never loses its event or its attempt log, whatever its age.
 *
 * Every batch is its own short transaction of at most `batchSize` deliveries (and their attempts)
 * or events, so the purge never holds locks for long and the dispatcher's claims and records go on
 * between batches. Rows are taken with FOR UPDATE SKIP LOCKED on PostgreSQL, and each batch's
 * conditions are checked again inside its transaction, so any number of processes may purge at once,
 * and a delivery re-queued (Retry, recover) while a purge runs is kept.
 */

export const DEFAULT_PURGE_BATCH = 1000;
const DAY_MS = 86_400_000;
/** How often each serve or worker process purges; the first pass runs right after start. */
const PURGE_EVERY_MS = 60 * 60_000;
/** A breath between batches, so other writers (SQLite: other processes waiting for the lock) get their turn. */
const PAUSE_BETWEEN_BATCHES_MS = 20;

export type PurgedTable = 'webhook_deliveries' | 'webhook_attempts' | 'events';

export const purgedRows = new Counter({
  name: 'custops_webhook_retention_purged_total',
  help: 'Rows removed by this process under CUSTOPS_WEBHOOK_RETENTION_DAYS, by table (events, webhook_deliveries, webhook_attempts).',
  labelNames: ['table'] as const,
  registers: [dispatcherRegistry],
});

export interface PurgeOptions {
  /** Deliveries or events per batch (one transaction each). */
  batchSize?: number;
  /** After each committed batch: what it removed. */
  onBatch?: (batch: { table: 'webhook_deliveries' | 'events'; rows: number; attempts: number }) => void | Promise<void>;
  /** Between batches; the purge stops early once it answers true (a stopping process). */
  pause?: () => Promise<void>;
  stopped?: () => boolean;
}

export interface PurgeResult {
  events: number;
  deliveries: number;
  attempts: number;
  batches: number;
}

/** The instant before which finished webhook history is purged; null when kept forever (0 days). */
export function retentionCutoff(now: number, days: number): number | null {
  return days > 0 ? now - days * DAY_MS : null;
}

/** Purges, account by account, the finished webhook history older than `cutoff` (see above). */
export async function purgeWebhookHistory(db: Db, cutoff: number, options: PurgeOptions = {}): Promise<PurgeResult> {
  const batchSize = options.batchSize ?? DEFAULT_PURGE_BATCH;
  const result: PurgeResult = { events: 0, deliveries: 0, attempts: 0, batches: 0 };
  const accounts = await db.selectFrom('accounts').select('id').orderBy('id').execute();
  const more = async (table: 'webhook_deliveries' | 'events', rows: number, attempts: number): Promise<boolean> => {
    result.batches++;
    await options.onBatch?.({ table, rows, attempts });
    if (rows < batchSize || options.stopped?.()) return false;
    await options.pause?.();
    return !options.stopped?.();
  };
  for (const { id: accountId } of accounts) {
    for (;;) {
      const { deliveries, attempts } = await purgeDeliveryBatch(db, accountId, cutoff, batchSize);
      if (deliveries === 0) break;
      result.deliveries += deliveries;
      result.attempts += attempts;
      if (!(await more('webhook_deliveries', deliveries, attempts))) break;
    }
    for (;;) {
      const events = await purgeEventBatch(db, accountId, cutoff, batchSize);
      if (events === 0) break;
      result.events += events;
      if (!(await more('events', events, 0))) break;
    }
    if (options.stopped?.()) break;
  }
  return result;
}

/** One transaction: up to `limit` finished deliveries of the account last active before `cutoff`, and their attempts. */
async function purgeDeliveryBatch(db: Db, accountId: number, cutoff: number, limit: number): Promise<{ deliveries: number; attempts: number }> {
  return db.transaction().execute(async (trx) => {
    const candidates = trx
      .selectFrom('webhook_deliveries')
      .select('id')
      // Finished: nothing scheduled (pending, retrying and re-queued deliveries all have a next attempt).
      .where('next_attempt_at', 'is', null)
      .where('status', '<>', 'pending')
      .where((eb) => eb(eb.fn.coalesce('last_attempt_at', 'created_at'), '<', cutoff));
    const rows = await claimOldest(trx, candidates, 'webhook_deliveries', { accountId, cutoff, limit }).execute();
    if (rows.length === 0) return { deliveries: 0, attempts: 0 };
    const ids = rows.map((r) => r.id);
    const attempts = await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).executeTakeFirst();
    const deliveries = await trx.deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst();
    return { deliveries: Number(deliveries.numDeletedRows), attempts: Number(attempts.numDeletedRows) };
  });
}

/** One transaction: up to `limit` events of the account from before `cutoff`, fanned out, with no delivery left. */
async function purgeEventBatch(db: Db, accountId: number, cutoff: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const candidates = trx
      .selectFrom('events as e')
      .select('e.id')
      // Not yet fanned out: its deliveries are still to be made.
      .where('e.dispatched_at', 'is not', null)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))));
    const rows = await claimOldest(trx, candidates, 'e', { accountId, cutoff, limit }).execute();
    if (rows.length === 0) return 0;
    const deleted = await trx
      .deleteFrom('events')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/**
 * Narrows `candidates` (rows of one table, `table` as the query names it) to the account's rows
 * created before `cutoff`, the oldest `limit` of them, claimed for the transaction.
 */
function claimOldest<DB, TB extends keyof DB & string, O>(
  trx: Trx,
  candidates: SelectQueryBuilder<DB, TB, O>,
  table: TB,
  batch: { accountId: number; cutoff: number; limit: number },
): SelectQueryBuilder<DB, TB, O> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const oldest = candidates
    .where(column('account_id'), '=', batch.accountId)
    .where(column('created_at'), '<', batch.cutoff)
    .orderBy(column('created_at'))
    .orderBy(column('id'))
    .limit(batch.limit);
  return engineOf(trx).claimRows(oldest, table);
}

export interface RetentionOptions {
  database: DatabaseHandle;
  config: Pick<Config, 'webhookRetentionDays'>;
  clock: Clock;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  batchSize?: number;
  /** Between passes (default one hour). */
  intervalMs?: number;
  /** Before the first pass (default: none, it runs right after start). */
  firstDelayMs?: number;
}

export interface Retention {
  /** One pass now (after the one running, if any); zeros when retention is off. */
  runOnce(): Promise<PurgeResult>;
  /** Stops the timer and waits for a pass in progress to end at its next batch boundary. */
  stop(): Promise<void>;
}

/**
 * The periodic purge of one process. `serve` and `worker` each start one beside their dispatcher;
 * several processes purging the same database at once is safe (see above), only redundant.
 */
export function startRetention(o: RetentionOptions): Retention {
  const days = o.config.webhookRetentionDays;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<PurgeResult> | null = null;
  const none: PurgeResult = { events: 0, deliveries: 0, attempts: 0, batches: 0 };

  const pass = async (): Promise<PurgeResult> => {
    const cutoff = retentionCutoff(o.clock.now(), days);
    if (cutoff === null) return none;
    const result = await purgeWebhookHistory(o.database.db, cutoff, {
      batchSize: o.batchSize,
      stopped: () => stopped,
      pause: () => new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS)),
      onBatch: ({ table, rows, attempts }) => {
        purgedRows.inc({ table }, rows);
        if (attempts) purgedRows.inc({ table: 'webhook_attempts' }, attempts);
      },
    });
    if (result.batches > 0) {
      o.log?.info({ ...result, retention_days: days, cutoff: new Date(cutoff).toISOString() }, 'webhook history purged');
    }
    return result;
  };

  const runOnce = async (): Promise<PurgeResult> => {
    while (running) await running.catch(() => {});
    running = pass();
    try {
      return await running;
    } finally {
      running = null;
    }
  };

  const schedule = (delayMs: number) => {
    if (stopped || days === 0) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((err) => {
          // An unavailable database is already logged once by its status; the next pass tries again.
          if (!databaseUnavailable(err)) o.log?.warn({ err }, 'webhook history purge failed');
        })
        .finally(() => schedule(o.intervalMs ?? PURGE_EVERY_MS));
    }, delayMs);
    timer.unref();
  };
  schedule(o.firstDelayMs ?? 0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
