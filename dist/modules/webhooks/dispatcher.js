import { systemClock } from '../../lib/clock.js';
import { databaseUnavailable } from '../../db/faults.js';
import { decryptSecret } from '../../lib/crypto.js';
import * as claims from './claim.repository.js';
import * as repo from './dispatch.repository.js';
import { attemptDuration, attemptsTotal, inFlight } from './metrics.js';
import { outcomeOf } from './retry.js';
import { listenToOutbox } from './outbox-listener.js';
import { RecordQueue } from './record-queue.js';
import { createSender } from './sender.js';
import { deliveryHeaders } from './signing.js';
const FAN_OUT_BATCH = 500;
const LEASE_MARGIN_MS = 5000;
/** Claimed ahead per endpoint, in multiples of its concurrency cap (each a queue of slots). */
const AHEAD = 4;
/**
 * The outbox → receiver pipeline of one process: fans events out into deliveries, claims due
 * deliveries within a global and a per-endpoint cap (so a slow receiver only ever holds its own
 * slots), signs and POSTs the stored bytes, and records every attempt. Woken at once by
 * `wake()` (in-process writes) and PostgreSQL NOTIFY (other processes); a short poll covers the rest.
 */
/** How long a wake waits for company before the pass runs. */
const WAKE_COALESCE_MS = 2;
export class Dispatcher {
    #o;
    #clock;
    #sender;
    #perEndpoint;
    #global;
    #leaseMs;
    #postgres;
    #inflight = new Map();
    /** Attempts until recorded (stop() waits for them). */
    #tasks = new Set();
    /** HTTP requests in flight: what the caps count. */
    #sending = 0;
    #pumping = null;
    #again = false;
    #wakeTimer = null;
    /** Set by wake() (events committed, NOTIFY, the poll): the next pass fans the outbox out. */
    #outboxDirty = true;
    #records;
    /** Claimed ahead (leased), waiting for a slot of their endpoint: claims are made in batches. */
    #ready = new Map();
    #claimWanted = true;
    #stopped = false;
    #started = false;
    #timer = null;
    #listener = null;
    /** Decrypted secrets by ciphertext: a rotation changes the ciphertext, so entries never go stale. */
    #secrets = new Map();
    constructor(options) {
        this.#o = options;
        this.#clock = options.clock ?? systemClock;
        this.#perEndpoint = options.perEndpointConcurrency ?? 10;
        this.#global = options.globalConcurrency ?? 100;
        // A claimed delivery may wait for up to AHEAD attempts of its endpoint before its own.
        this.#leaseMs = (AHEAD + 1) * options.config.webhookTimeoutMs + LEASE_MARGIN_MS;
        this.#records = new RecordQueue(options.database.db, options.database.dialect === 'postgres');
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
    async start() {
        this.#started = true;
        if (this.#postgres && this.#o.database.pool)
            this.#listener = listenToOutbox(this.#o.database.pool, () => this.wake(), this.#o.log);
        this.wake();
    }
    /**
     * New work may be there: run a pass soon. Cheap and safe to call often: wakes within
     * WAKE_COALESCE_MS share one pass, so a burst of committed writes costs one fan-out, not one each.
     */
    wake() {
        this.#outboxDirty = true;
        this.#claimWanted = true;
        if (this.#wakeTimer)
            return;
        this.#wakeTimer = setTimeout(() => {
            this.#wakeTimer = null;
            this.#kick();
        }, WAKE_COALESCE_MS);
    }
    /** A slot freed: claim more, without looking at the outbox. */
    #kick() {
        if (this.#stopped || !this.#started)
            return;
        if (this.#pumping) {
            this.#again = true;
            return;
        }
        this.#pumping = this.#pump().finally(() => {
            this.#pumping = null;
            if (this.#again)
                this.#kick();
            else
                this.#arm();
        });
    }
    /** Runs passes until nothing is due now and nothing is in flight (tests and benchmarks). */
    async drain() {
        for (;;) {
            this.#outboxDirty = true;
            this.#claimWanted = true;
            await this.#pumpOnce();
            if (this.#tasks.size > 0) {
                await Promise.race(this.#tasks);
                continue;
            }
            if (!(await claims.hasDueWork(this.#o.database.db, this.#clock.now())))
                return;
        }
    }
    /** Stops claiming, lets the attempts in flight finish and be recorded, then closes connections. */
    async stop() {
        if (this.#stopped)
            return;
        this.#stopped = true;
        if (this.#timer)
            clearTimeout(this.#timer);
        if (this.#wakeTimer)
            clearTimeout(this.#wakeTimer);
        await this.#pumping;
        await Promise.allSettled([...this.#tasks]);
        const unsent = [...this.#ready.values()].flat().map((d) => d.id);
        this.#ready.clear();
        await claims.releaseLeases(this.#o.database.db, unsent).catch((err) => this.#o.log?.warn({ err }, 'could not release claimed deliveries; their leases will expire'));
        await this.#listener?.close();
        await this.#sender.close();
    }
    async #pump() {
        do {
            this.#again = false;
            try {
                await this.#pumpOnce();
            }
            catch (err) {
                // An unavailable database is one logged outage (its status says when it ends), not a line per poll;
                // the poll keeps running, so the dispatcher resumes by itself when the database returns.
                const reason = databaseUnavailable(err);
                if (reason)
                    this.#o.database.status.failed(err, reason);
                else
                    this.#o.log?.error({ err }, 'webhook dispatcher pass failed');
                return;
            }
        } while (this.#again && !this.#stopped);
    }
    async #pumpOnce() {
        const db = this.#o.database.db;
        if (this.#outboxDirty) {
            this.#outboxDirty = false;
            while ((await repo.fanOut(db, this.#postgres, this.#clock.now(), FAN_OUT_BATCH)) === FAN_OUT_BATCH && !this.#stopped)
                ;
        }
        this.#launchReady();
        if (!this.#claimWanted || this.#stopped)
            return;
        this.#claimWanted = false;
        const holding = new Map(this.#inflight);
        let held = this.#sending;
        for (const [id, list] of this.#ready) {
            holding.set(id, (holding.get(id) ?? 0) + list.length);
            held += list.length;
        }
        const room = (AHEAD + 1) * this.#global - held;
        if (room <= 0)
            return;
        const claimed = await claims.claimDue(db, this.#postgres, this.#clock.now(), this.#leaseMs, { room, perEndpoint: (AHEAD + 1) * this.#perEndpoint, inflight: holding });
        for (const d of claimed) {
            const list = this.#ready.get(d.endpoint_id);
            if (list)
                list.push(d);
            else
                this.#ready.set(d.endpoint_id, [d]);
        }
        this.#launchReady();
    }
    #launchReady() {
        for (const [endpointId, list] of this.#ready) {
            while (list.length && (this.#inflight.get(endpointId) ?? 0) < this.#perEndpoint && this.#sending < this.#global && !this.#stopped) {
                this.#launch(list.shift());
            }
            if (list.length === 0)
                this.#ready.delete(endpointId);
        }
    }
    #launch(d) {
        this.#inflight.set(d.endpoint_id, (this.#inflight.get(d.endpoint_id) ?? 0) + 1);
        this.#sending++;
        inFlight.inc();
        let released = false;
        // The slot is the HTTP request: it frees when the answer is in, while the record is written.
        const release = () => {
            if (released)
                return;
            released = true;
            const n = (this.#inflight.get(d.endpoint_id) ?? 1) - 1;
            if (n <= 0)
                this.#inflight.delete(d.endpoint_id);
            else
                this.#inflight.set(d.endpoint_id, n);
            this.#sending--;
            inFlight.dec();
            // Refill in batches: claim again once this endpoint's claimed-ahead queue runs low.
            if ((this.#ready.get(d.endpoint_id)?.length ?? 0) <= this.#perEndpoint)
                this.#claimWanted = true;
            this.#kick();
        };
        const task = this.#attempt(d, release)
            .catch((err) => this.#o.log?.error({ err, delivery_id: d.id }, 'webhook attempt could not be recorded; it will be retried when its lease ends'))
            .finally(() => {
            this.#tasks.delete(task);
            release();
        });
        this.#tasks.add(task);
    }
    async #attempt(d, release) {
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
        release();
        attemptsTotal.inc({ outcome: result.error ? 'failed' : 'sent', error: result.error ?? 'none' });
        attemptDuration.observe(result.durationMs / 1000);
        const schedule = this.#o.config.webhookRetryScheduleSeconds;
        await this.#records.add({
            deliveryId: d.id, accountId: d.account_id, endpointId: d.endpoint_id, trigger: d.next_trigger ?? 'scheduled',
            statusCode: result.statusCode, error: result.error, responseBody: result.responseBody, durationMs: result.durationMs, requestedAt,
            previousAttempts: d.attempts,
        }, (attemptNumber, failingSince) => {
            const outcome = outcomeOf(result, attemptNumber, failingSince, requestedAt, schedule, this.#o.random);
            // A test send is a probe: a failure is shown, not retried on the schedule (Retry sends it again).
            return d.is_test && outcome.status === 'failed' ? { ...outcome, nextAttemptAt: null } : outcome;
        });
    }
    #secret(encrypted) {
        let plain = this.#secrets.get(encrypted);
        if (plain === undefined) {
            if (this.#secrets.size >= 10_000)
                this.#secrets.clear();
            plain = decryptSecret(this.#o.config.secretKey, encrypted);
            this.#secrets.set(encrypted, plain);
        }
        return plain;
    }
    #arm() {
        if (this.#stopped)
            return;
        if (this.#timer)
            clearTimeout(this.#timer);
        const interval = this.#o.pollIntervalMs ?? (this.#listener?.connected() ? 1000 : 250);
        this.#timer = setTimeout(() => this.wake(), interval);
        this.#timer.unref();
    }
}
