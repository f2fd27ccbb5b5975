import type { LookupFunction } from 'node:net';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { systemClock, type Clock } from '../../lib/clock.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { OUTBOX_CHANNEL } from '../events/outbox.ts';
import * as repo from './dispatch.repository.ts';
import { attemptDuration, attemptsTotal, inFlight } from './metrics.ts';
import { AUTO_DISABLE_AFTER_MS, retryDelayMs } from './retry.ts';
import { createSender, type Sender } from './sender.ts';
import { deliveryHeaders } from './signing.ts';

export interface DispatcherOptions {
  database: DatabaseHandle;
  config: Config;
  clock?: Clock;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Extra trusted CA for receivers (in-process tests); NODE_EXTRA_CA_CERTS works too. */
  ca?: string | Buffer;
  lookup?: LookupFunction;
  perEndpointConcurrency?: number;
  globalConcurrency?: number;
  /** Safety poll for work nobody signalled (retries coming due, other processes on SQLite). */
  pollIntervalMs?: number;
  random?: () => number;
}

const FAN_OUT_BATCH = 500;
const LEASE_MARGIN_MS = 5000;

/**
 * The outbox → receiver pipeline of one process: fans events out into deliveries, claims due
 * deliveries within a global and a per-endpoint cap (so a slow receiver only ever holds its own
 * slots), signs and POSTs the stored bytes, and records every attempt. Woken at once by
 * `wake()` (in-process writes) and PostgreSQL NOTIFY (other processes); a short poll covers the rest.
 */
export class Dispatcher {
  readonly #o: DispatcherOptions;
  readonly #clock: Clock;
  readonly #sender: Sender;
  readonly #perEndpoint: number;
  readonly #global: number;
  readonly #leaseMs: number;
  readonly #postgres: boolean;
  readonly #inflight = new Map<number, number>();
  readonly #tasks = new Set<Promise<void>>();
  #pumping: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  #started = false;
  #timer: NodeJS.Timeout | null = null;
  #listener: pg.PoolClient | null = null;

  constructor(options: DispatcherOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#perEndpoint = options.perEndpointConcurrency ?? 10;
    this.#global = options.globalConcurrency ?? 100;
    this.#leaseMs = options.config.webhookTimeoutMs + LEASE_MARGIN_MS;
    this.#postgres = options.database.dialect === 'postgres';
    this.#sender = createSender({
      allowPrivate: options.config.webhookAllowPrivate,
      connectTimeoutMs: options.config.webhookConnectTimeoutMs,
      timeoutMs: options.config.webhookTimeoutMs,
      // Endpoints may share an origin: the per-endpoint cap is enforced above, not by the socket pool.
      connectionsPerOrigin: this.#global,
      ca: options.ca,
      lookup: options.lookup,
    });
  }

  /** Starts the loop (and LISTEN on PostgreSQL). */
  async start(): Promise<void> {
    this.#started = true;
    if (this.#postgres && this.#o.database.pool) await this.#listen(this.#o.database.pool);
    this.wake();
  }

  /** New work may be there: run a pass soon. Cheap and safe to call often. */
  wake(): void {
    if (this.#stopped || !this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
      if (this.#again) this.wake();
      else this.#arm();
    });
  }

  /** Runs passes until nothing is due now and nothing is in flight (tests and benchmarks). */
  async drain(): Promise<void> {
    for (;;) {
      await this.#pumpOnce();
      if (this.#tasks.size > 0) {
        await Promise.race(this.#tasks);
        continue;
      }
      if (!(await repo.hasDueWork(this.#o.database.db, this.#clock.now()))) return;
    }
  }

  /** Stops claiming, lets the attempts in flight finish and be recorded, then closes connections. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#pumping;
    await Promise.allSettled([...this.#tasks]);
    if (this.#listener) {
      const client = this.#listener;
      this.#listener = null;
      await client.query(`unlisten ${OUTBOX_CHANNEL}`).catch(() => {});
      client.release();
    }
    await this.#sender.close();
  }

  async #pump(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pumpOnce();
      } catch (err) {
        this.#o.log?.error({ err }, 'webhook dispatcher pass failed');
        return;
      }
    } while (this.#again && !this.#stopped);
  }

  async #pumpOnce(): Promise<void> {
    const db = this.#o.database.db;
    while ((await repo.fanOut(db, this.#postgres, this.#clock.now(), FAN_OUT_BATCH)) === FAN_OUT_BATCH && !this.#stopped);
    // Candidates refused for a full endpoint leave room: claim again with that endpoint excluded.
    for (let pass = 0; pass < 8 && !this.#stopped; pass++) {
      const free = this.#global - this.#tasks.size;
      if (free <= 0) return;
      const saturated = [...this.#inflight].filter(([, n]) => n >= this.#perEndpoint).map(([id]) => id);
      const planned = new Map(this.#inflight);
      let room = free;
      let refused = false;
      const take = (endpointId: number) => {
        const n = planned.get(endpointId) ?? 0;
        if (room <= 0 || n >= this.#perEndpoint) {
          refused ||= room > 0;
          return false;
        }
        planned.set(endpointId, n + 1);
        room--;
        return true;
      };
      const claimed = await repo.claimDue(db, this.#postgres, this.#clock.now(), this.#leaseMs, free, saturated, take);
      for (const delivery of claimed) this.#launch(delivery);
      if (!refused) return;
    }
  }

  #launch(d: repo.ClaimedDelivery): void {
    this.#inflight.set(d.endpoint_id, (this.#inflight.get(d.endpoint_id) ?? 0) + 1);
    inFlight.inc();
    const task = this.#attempt(d)
      .catch((err) => this.#o.log?.error({ err, delivery_id: d.id }, 'webhook attempt could not be recorded; it will be retried when its lease ends'))
      .finally(() => {
        const n = (this.#inflight.get(d.endpoint_id) ?? 1) - 1;
        if (n <= 0) this.#inflight.delete(d.endpoint_id);
        else this.#inflight.set(d.endpoint_id, n);
        inFlight.dec();
        this.#tasks.delete(task);
        this.wake();
      });
    this.#tasks.add(task);
  }

  async #attempt(d: repo.ClaimedDelivery): Promise<void> {
    const key = this.#o.config.secretKey!;
    const requestedAt = this.#clock.now();
    const body = Buffer.from(d.payload, 'utf8');
    const previous = d.previous_secret_encrypted && (d.previous_secret_expires_at ?? 0) > requestedAt ? decryptSecret(key, d.previous_secret_encrypted) : null;
    const headers = deliveryHeaders({
      body: d.payload,
      eventType: d.event_type,
      eventId: d.public_id,
      deliveryId: d.id,
      secret: decryptSecret(key, d.secret_encrypted),
      previousSecret: previous,
      timestampSeconds: Math.floor(requestedAt / 1000),
    });
    const result = await this.#sender.send(d.url, headers, body);
    attemptsTotal.inc({ outcome: result.error ? 'failed' : 'sent', error: result.error ?? 'none' });
    attemptDuration.observe(result.durationMs / 1000);
    const schedule = this.#o.config.webhookRetryScheduleSeconds;
    await repo.recordAttempt(
      this.#o.database.db,
      {
        deliveryId: d.id, accountId: d.account_id, endpointId: d.endpoint_id, trigger: d.next_trigger ?? 'scheduled',
        statusCode: result.statusCode, error: result.error, responseBody: result.responseBody, durationMs: result.durationMs, requestedAt,
      },
      (attemptNumber, failingSince) => {
        if (!result.error) return { status: 'sent', attemptNumber, nextAttemptAt: null, disabledReason: null };
        const gone = result.statusCode === 410;
        const streakTooLong = failingSince !== null && requestedAt - failingSince >= AUTO_DISABLE_AFTER_MS;
        const delay = gone ? null : retryDelayMs(attemptNumber, schedule, result.retryAfterMs, this.#o.random);
        return {
          status: 'failed',
          attemptNumber,
          nextAttemptAt: delay === null ? null : requestedAt + delay,
          disabledReason: gone ? 'gone' : streakTooLong ? 'failing_5_days' : null,
        };
      },
    );
  }

  #arm(): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    const interval = this.#o.pollIntervalMs ?? (this.#listener ? 1000 : 250);
    this.#timer = setTimeout(() => this.wake(), interval);
    this.#timer.unref();
  }

  async #listen(pool: pg.Pool): Promise<void> {
    try {
      const client = await pool.connect();
      client.on('notification', () => this.wake());
      client.on('error', (err) => {
        this.#o.log?.warn({ err }, 'webhook dispatcher lost its LISTEN connection; reconnecting');
        client.release(err);
        this.#listener = null;
        if (!this.#stopped) setTimeout(() => void this.#listen(pool), 1000).unref();
      });
      await client.query(`listen ${OUTBOX_CHANNEL}`);
      this.#listener = client;
    } catch (err) {
      this.#o.log?.warn({ err }, 'webhook dispatcher could not LISTEN; polling only');
      if (!this.#stopped) setTimeout(() => void this.#listen(pool), 1000).unref();
    }
  }
}
