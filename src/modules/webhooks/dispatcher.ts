import type { LookupFunction } from 'node:net';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { systemClock, type Clock } from '../../lib/clock.ts';
import { databaseUnavailable } from '../../db/errors.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import * as claims from './claim.repository.ts';
import * as repo from './dispatch.repository.ts';
import { attemptDuration, attemptsTotal, inFlight } from './metrics.ts';
import { outcomeOf } from './retry.ts';
import { listenToOutbox, type OutboxListener } from './outbox-listener.ts';
import { RecordQueue } from './record-queue.ts';
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
  /** Slots every endpoint always has (default CUSTOPS_WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpointConcurrency?: number;
  /** Requests in flight in this process (default CUSTOPS_WEBHOOK_CONCURRENCY). */
  globalConcurrency?: number;
  /** Safety poll for work nobody signalled (retries coming due, other processes on SQLite). */
  pollIntervalMs?: number;
  random?: () => number;
}

const FAN_OUT_BATCH = 500;
const LEASE_MARGIN_MS = 5000;
/** Claimed ahead per endpoint, in multiples of its concurrency cap (each a queue of slots). */
const AHEAD = 4;
/** How far a healthy endpoint with a backlog may grow past its own slots, as a multiple of them. */
const BURST = 4;

/**
 * The outbox → receiver pipeline of one process: fans events out into deliveries, claims due
 * deliveries within a global and a per-endpoint cap (so a slow receiver only ever holds its own
 * slots), signs and POSTs the stored bytes, and records every attempt. Woken at once by
 * `wake()` (in-process writes) and PostgreSQL NOTIFY (other processes); a short poll covers the rest.
 */
/** How long a wake waits for company before the pass runs. */
const WAKE_COALESCE_MS = 2;

export class Dispatcher {
  readonly #o: DispatcherOptions;
  readonly #clock: Clock;
  readonly #sender: Sender;
  /** Slots every endpoint has, whatever its receiver does. */
  readonly #perEndpoint: number;
  readonly #global: number;
  /**
   * Slots of endpoints grown past their own (absent: `#perEndpoint`). A 2xx answered while the
   * endpoint's queue waits adds one, up to BURST × its own; an answer with nothing waiting takes one
   * back; any failure drops it to its own slots. Slots past an endpoint's own are only taken while
   * fewer than half the process's are busy, so other endpoints always find room.
   */
  readonly #limits = new Map<number, number>();
  readonly #leaseMs: number;
  readonly #inflight = new Map<number, number>();
  /** Attempts until recorded (stop() waits for them). */
  readonly #tasks = new Set<Promise<void>>();
  /** HTTP requests in flight: what the caps count. */
  #sending = 0;
  #pumping: Promise<void> | null = null;
  #again = false;
  #wakeTimer: NodeJS.Timeout | null = null;
  /** Set by wake() (events committed, NOTIFY, the poll): the next pass fans the outbox out. */
  #outboxDirty = true;
  readonly #records: RecordQueue;
  /** Claimed ahead (leased), waiting for a slot of their endpoint: claims are made in batches. */
  readonly #ready = new Map<number, claims.ClaimedDelivery[]>();
  #claimWanted = true;
  #stopped = false;
  #started = false;
  #timer: NodeJS.Timeout | null = null;
  #listener: OutboxListener | null = null;
  /** Decrypted secrets by ciphertext: a rotation changes the ciphertext, so entries never go stale. */
  readonly #secrets = new Map<string, string>();

  constructor(options: DispatcherOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#perEndpoint = options.perEndpointConcurrency ?? options.config.webhookEndpointConcurrency;
    this.#global = options.globalConcurrency ?? options.config.webhookConcurrency;
    // A claimed delivery may wait for up to AHEAD attempts of its endpoint before its own.
    this.#leaseMs = (AHEAD + 1) * options.config.webhookTimeoutMs + LEASE_MARGIN_MS;
    this.#records = new RecordQueue(options.database.db);
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

  /** Starts the loop (and LISTEN, where the database has a pool to listen on: PostgreSQL). */
  async start(): Promise<void> {
    this.#started = true;
    if (this.#o.database.pool) this.#listener = listenToOutbox(this.#o.database.pool, () => this.wake(), this.#o.log);
    this.wake();
  }

  /**
   * New work may be there: run a pass soon. Cheap and safe to call often: wakes within
   * WAKE_COALESCE_MS share one pass, so a burst of committed writes costs one fan-out, not one each.
   */
  wake(): void {
    this.#outboxDirty = true;
    this.#claimWanted = true;
    if (this.#wakeTimer) return;
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = null;
      this.#kick();
    }, WAKE_COALESCE_MS);
  }

  /** A slot freed: claim more, without looking at the outbox. */
  #kick(): void {
    if (this.#stopped || !this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
      if (this.#again) this.#kick();
      else this.#arm();
    });
  }

  /** Runs passes until nothing is due now and nothing is in flight (tests and benchmarks). */
  async drain(): Promise<void> {
    for (;;) {
      this.#outboxDirty = true;
      this.#claimWanted = true;
      await this.#pumpOnce();
      if (this.#tasks.size > 0) {
        await Promise.race(this.#tasks);
        continue;
      }
      if (!(await claims.hasDueWork(this.#o.database.db, this.#clock.now()))) return;
    }
  }

  /** Stops claiming, lets the attempts in flight finish and be recorded, then closes connections. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
    await this.#pumping;
    await Promise.allSettled([...this.#tasks]);
    const unsent = [...this.#ready.values()].flat().map((d) => d.id);
    this.#ready.clear();
    await claims
      .releaseLeases(this.#o.database.db, unsent)
      .catch((err) => this.#o.log?.warn({ err }, 'could not release claimed deliveries; their leases will expire'));
    await this.#listener?.close();
    await this.#sender.close();
  }

  async #pump(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pumpOnce();
      } catch (err) {
        // An unavailable database is one logged outage (its status says when it ends), not a line per poll;
        // the poll keeps running, so the dispatcher resumes by itself when the database returns.
        const reason = databaseUnavailable(err);
        if (reason) this.#o.database.status.failed(err, reason);
        else this.#o.log?.error({ err }, 'webhook dispatcher pass failed');
        return;
      }
    } while (this.#again && !this.#stopped);
  }

  async #pumpOnce(): Promise<void> {
    const db = this.#o.database.db;
    this.#launchReady();
    if (this.#outboxDirty) {
      this.#outboxDirty = false;
      // New deliveries are leased at birth when nothing older waits (one statement on PostgreSQL
      // instead of a fan-out and a claim): a committed event goes out after one database step.
      const now = this.#clock.now();
      const plan = this.#plan();
      const r = await repo.fanOut(
        db,
        now,
        FAN_OUT_BATCH,
        plan && { lockedUntil: now + this.#leaseMs, room: plan.room, perEndpoint: plan.perEndpoint, held: plan.inflight },
      );
      this.#take(r.claimed);
      if (r.events === FAN_OUT_BATCH) {
        // A backlog: one batch a pass, so the claims that keep the slots busy come in between.
        this.#outboxDirty = true;
        this.#again = true;
      } else if (r.complete) this.#claimWanted = false; // a claim now would find nothing (what comes due later wakes or polls)
    }
    if (!this.#claimWanted || this.#stopped) return;
    this.#claimWanted = false;
    const plan = this.#plan();
    if (!plan) return;
    const claimed = await claims.claimDue(db, this.#clock.now(), this.#leaseMs, plan);
    this.#take(claimed);
  }

  /** What this process may claim now: its free room and what it holds per endpoint (in flight or claimed ahead); null when full. */
  #plan(): claims.ClaimPlan | null {
    const holding = new Map(this.#inflight);
    let held = this.#sending;
    for (const [id, list] of this.#ready) {
      holding.set(id, (holding.get(id) ?? 0) + list.length);
      held += list.length;
    }
    const room = (AHEAD + 1) * this.#global - held;
    return room > 0 ? { room, perEndpoint: (AHEAD + 1) * this.#perEndpoint, inflight: holding } : null;
  }

  /** Claimed deliveries join their endpoint's queue (oldest first) and take the free slots. */
  #take(claimed: claims.ClaimedDelivery[]): void {
    for (const d of claimed) {
      const list = this.#ready.get(d.endpoint_id);
      if (list) list.push(d);
      else this.#ready.set(d.endpoint_id, [d]);
    }
    this.#launchReady();
  }

  #launchReady(): void {
    for (const [endpointId, list] of this.#ready) {
      while (list.length && this.#hasSlot(endpointId)) this.#launch(list.shift()!);
      if (list.length === 0) this.#ready.delete(endpointId);
    }
  }

  /** May one more request to this endpoint start now? */
  #hasSlot(endpointId: number): boolean {
    if (this.#stopped || this.#sending >= this.#global) return false;
    const busy = this.#inflight.get(endpointId) ?? 0;
    if (busy < this.#perEndpoint) return true;
    return busy < (this.#limits.get(endpointId) ?? this.#perEndpoint) && this.#sending < this.#global / 2;
  }

  /**
   * An answer came back (called before its slot is freed): grow the endpoint's slots when it
   * answered well while using all of them and work waits; give one back when nothing waits; back
   * to its own slots at a failure. Work that waits for the process's cap, not the endpoint's,
   * grows nothing.
   */
  #adapt(endpointId: number, ok: boolean): void {
    const limit = this.#limits.get(endpointId) ?? this.#perEndpoint;
    const waiting = (this.#ready.get(endpointId)?.length ?? 0) > 0;
    const full = (this.#inflight.get(endpointId) ?? 0) >= limit;
    let next = limit;
    if (!ok) next = this.#perEndpoint;
    else if (!waiting) next = Math.max(limit - 1, this.#perEndpoint);
    else if (full) next = Math.min(limit + 1, BURST * this.#perEndpoint);
    if (next === this.#perEndpoint) this.#limits.delete(endpointId);
    else this.#limits.set(endpointId, next);
  }

  #launch(d: claims.ClaimedDelivery): void {
    this.#inflight.set(d.endpoint_id, (this.#inflight.get(d.endpoint_id) ?? 0) + 1);
    this.#sending++;
    inFlight.inc();
    let released = false;
    // The slot is the HTTP request: it frees when the answer is in, while the record is written.
    const release = (ok = false) => {
      if (released) return;
      released = true;
      this.#adapt(d.endpoint_id, ok);
      const n = (this.#inflight.get(d.endpoint_id) ?? 1) - 1;
      if (n <= 0) this.#inflight.delete(d.endpoint_id);
      else this.#inflight.set(d.endpoint_id, n);
      this.#sending--;
      inFlight.dec();
      // The freed slot takes the next claimed delivery at once, without waiting for a pass (whose
      // fan-out and claim are database work); the queue is refilled in batches once it runs low.
      this.#launchReady();
      if ((this.#ready.get(d.endpoint_id)?.length ?? 0) <= this.#perEndpoint) {
        this.#claimWanted = true;
        this.#kick();
      }
    };
    const task = this.#attempt(d, release)
      .catch((err) => this.#o.log?.error({ err, delivery_id: d.id }, 'webhook attempt could not be recorded; it will be retried when its lease ends'))
      .finally(() => {
        this.#tasks.delete(task);
        release();
      });
    this.#tasks.add(task);
  }

  async #attempt(d: claims.ClaimedDelivery, release: (ok: boolean) => void): Promise<void> {
    const requestedAt = this.#clock.now();
    const body = Buffer.from(d.payload, 'utf8');
    const previous = d.previous_secret_encrypted && (d.previous_secret_expires_at ?? 0) > requestedAt ? this.#secret(d.previous_secret_encrypted) : null;
    const headers = deliveryHeaders({
      body: d.payload,
      eventType: d.event_type,
      eventId: d.public_id,
      deliveryId: d.id,
      secret: this.#secret(d.secret_encrypted),
      previousSecret: previous,
      timestampSeconds: Math.floor(requestedAt / 1000),
      test: Boolean(d.is_test),
    });
    const result = await this.#sender.send(d.url, headers, body);
    release(!result.error && result.statusCode >= 200 && result.statusCode < 300);
    attemptsTotal.inc({ outcome: result.error ? 'failed' : 'sent', error: result.error ?? 'none' });
    attemptDuration.observe(result.durationMs / 1000);
    const schedule = this.#o.config.webhookRetryScheduleSeconds;
    await this.#records.add(
      {
        deliveryId: d.id,
        accountId: d.account_id,
        endpointId: d.endpoint_id,
        trigger: d.next_trigger ?? 'scheduled',
        statusCode: result.statusCode,
        error: result.error,
        responseBody: result.responseBody,
        durationMs: result.durationMs,
        requestedAt,
        previousAttempts: d.attempts,
      },
      (attemptNumber, failingSince) => {
        const outcome = outcomeOf(result, attemptNumber, failingSince, requestedAt, schedule, this.#o.random);
        // A test send is a probe: a failure is shown, not retried on the schedule (Retry sends it again).
        return d.is_test && outcome.status === 'failed' ? { ...outcome, nextAttemptAt: null } : outcome;
      },
    );
  }

  #secret(encrypted: string): string {
    let plain = this.#secrets.get(encrypted);
    if (plain === undefined) {
      if (this.#secrets.size >= 10_000) this.#secrets.clear();
      plain = decryptSecret(this.#o.config.secretKey!, encrypted);
      this.#secrets.set(encrypted, plain);
    }
    return plain;
  }

  #arm(): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    const interval = this.#o.pollIntervalMs ?? (this.#listener?.connected() ? 1000 : 250);
    this.#timer = setTimeout(() => this.wake(), interval);
    this.#timer.unref();
  }
}
