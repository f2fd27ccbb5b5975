import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * Prometheus metrics. The attempt counters and latency belong to this process's dispatcher (one
 * registry per process); the delivery gauges are read from the database at scrape time, so any
 * process (API or worker) reports the same queue.
 */
export const dispatcherRegistry = new Registry();

export const attemptsTotal = new Counter({
  name: 'custops_webhook_attempts_total',
  help: 'Delivery attempts made by this process, by outcome (sent, failed) and error class.',
  labelNames: ['outcome', 'error'] as const,
  registers: [dispatcherRegistry],
});

export const attemptDuration = new Histogram({
  name: 'custops_webhook_attempt_duration_seconds',
  help: 'Duration of delivery attempts made by this process (request to response body), in seconds.',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [dispatcherRegistry],
});

export const inFlight = new Gauge({
  name: 'custops_webhook_in_flight',
  help: 'Delivery attempts in flight in this process.',
  registers: [dispatcherRegistry],
});

/** A registry of database-backed gauges for one database. */
export function createQueueRegistry(db: Db, clock: Clock): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'custops_webhook_deliveries',
    help: 'Deliveries by status (pending: not yet attempted; failed: includes those awaiting a retry).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['pending', 'sent', 'failed']) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });
  new Gauge({
    name: 'custops_webhook_queue_depth',
    help: 'Work due now: events not yet fanned out plus deliveries whose next attempt is due.',
    registers: [registry],
    async collect() {
      const now = clock.now();
      const ev = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('dispatched_at', 'is', null)
        .executeTakeFirstOrThrow();
      const d = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('next_attempt_at', '<=', now)
        .executeTakeFirstOrThrow();
      this.set(Number(ev.n) + Number(d.n));
    },
  });
  new Gauge({
    name: 'custops_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest work due now (an event not fanned out, or a due delivery), in seconds; 0 when none.',
    registers: [registry],
    async collect() {
      const now = clock.now();
      const ev = await db
        .selectFrom('events')
        .select((eb) => eb.fn.min('created_at').as('t'))
        .where('dispatched_at', 'is', null)
        .executeTakeFirst();
      const d = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min('next_attempt_at').as('t'))
        .where('next_attempt_at', '<=', now)
        .executeTakeFirst();
      const times = [ev?.t, d?.t].filter((t) => t !== null && t !== undefined).map(Number);
      this.set(times.length ? Math.max(0, (now - Math.min(...times)) / 1000) : 0);
    },
  });
  return registry;
}

/**
 * The queue gauges read the database; while it is down they are left out (with a comment line),
 * so the scrape still shows this process's counters and the dependency state that explains why.
 */
export async function renderMetrics(queue: Registry, others: Registry[] = []): Promise<string> {
  const queueText = await queue.metrics().catch(() => '# custops_webhook_* queue gauges unavailable: the database did not answer\n');
  const rest = await Promise.all([dispatcherRegistry, ...others].map((r) => r.metrics()));
  return [queueText, ...rest].join('\n');
}

export const METRICS_CONTENT_TYPE = dispatcherRegistry.contentType;
