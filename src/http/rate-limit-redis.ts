import { Redis } from 'ioredis';
import { DependencyStatus, type StatusLog } from '../lib/dependency-status.ts';
import { MemoryRateLimitStore, type RateLimitBackend, type RateLimitHit, type RateLimitStore } from './rate-limit.ts';

// One round trip, atomic: count the hit and start the window's expiry on its first hit.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/** While Redis is out, how often one PING checks whether it is back. */
const PROBE_EVERY_MS = 500;

export interface RedisStoreOptions {
  /** The time budget of one call (and of a probe); beyond it the call counts as failed. */
  budgetMs: number;
  log?: StatusLog;
}

type HitCommand = (key: string, windowMs: number) => Promise<[number, number]>;

/**
 * Counters in Redis, so every API process shares one budget per key. Each call has a time
 * budget of a few tens of milliseconds: a hung or unreachable Redis never holds a request
 * longer than that. On the first failure the process switches to its own in-memory window
 * (the same limit per key, counted per process: fail open to a local limit, not to none),
 * logs one warning, and PINGs Redis every half second; the first answer switches back.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly status: DependencyStatus;
  readonly #redis: Redis;
  readonly #local: MemoryRateLimitStore;
  #probe: NodeJS.Timeout | null = null;
  #probing = false;
  #closed = false;
  /** Hits answered by the local window because Redis was unavailable. */
  fallbackHits = 0;

  constructor(url: string, options: RedisStoreOptions) {
    this.status = new DependencyStatus('redis', options.log ?? null);
    this.#local = new MemoryRateLimitStore();
    this.#redis = new Redis(url, {
      // ioredis' own bound on each command: no promise waits past the budget.
      commandTimeout: options.budgetMs,
      // A command sent while (re)connecting waits in ioredis' queue, but no longer than the budget above;
      // during an outage only the half-second probe reaches this client, so the queue stays tiny.
      enableOfflineQueue: true,
      // A command in flight when the connection drops fails at once rather than being resent later.
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      // The ready check (an INFO after each connect) would be held to the same budget and could mark a
      // healthy but momentarily slow start as an outage; the first real call tells as much.
      enableReadyCheck: false,
      // Reconnect forever, at most a second apart: Redis use resumes by itself.
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    this.#redis.defineCommand('custopsHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Without a listener ioredis prints "Unhandled error event" for every failed reconnect.
    this.#redis.on('error', (err) => this.#unavailable(err));
    // Loaded at each connect (a restarted Redis has forgotten it), so a hit is one round trip, never two.
    this.#redis.on('ready', () => {
      this.#redis.script('LOAD', HIT_SCRIPT).catch(() => {});
    });
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    // Only a ready connection is asked: while the first connection is being made (the first
    // milliseconds of the process) or a lost one is re-made, the local window answers.
    if (this.status.up && this.#redis.status === 'ready') {
      try {
        const [count, ttl] = await (this.#redis as unknown as { custopsHit: HitCommand }).custopsHit(`custops:rl:${key}`, windowMs);
        return { count, resetMs: ttl };
      } catch (err) {
        this.#unavailable(err);
      }
    }
    if (!this.status.up) this.fallbackHits++;
    return this.#local.hit(key, windowMs);
  }

  /** Resolves once the first connection is up or has failed (at most the connect time-out): start-up waits for it. */
  connected(): Promise<void> {
    if (this.#redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#redis.off('ready', done);
        this.#redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2_000);
      this.#redis.once('ready', done);
      this.#redis.once('error', done);
    });
  }

  backend(): RateLimitBackend {
    return this.status.up ? 'redis' : 'local_fallback';
  }

  #unavailable(err: unknown): void {
    if (this.#closed) return;
    const timedOut = err instanceof Error && /timed out/i.test(err.message);
    this.status.failed(err, timedOut ? 'redis_timeout' : 'redis_unreachable', { fallback: 'local' });
    this.#probe ??= setInterval(() => void this.#check(), PROBE_EVERY_MS).unref();
  }

  async #check(): Promise<void> {
    if (this.#probing || this.#closed) return;
    this.#probing = true;
    try {
      await this.#redis.ping();
      if (this.#probe) clearInterval(this.#probe);
      this.#probe = null;
      this.status.succeeded({ fallback_hits: this.fallbackHits });
    } catch {
      // still out; the next probe tries again
    } finally {
      this.#probing = false;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#probe) clearInterval(this.#probe);
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
