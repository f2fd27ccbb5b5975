export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Where the counts live now: in this process only, in Redis, or in this process while Redis is unavailable. */
export type RateLimitBackend = 'memory' | 'redis' | 'local_fallback';

/** A fixed one-minute window per key. */
export interface RateLimitStore {
  /** A store that counts in this process answers at once (no promise per request); one that asks a server, later. */
  hit(key: string, windowMs: number): RateLimitHit | Promise<RateLimitHit>;
  backend(): RateLimitBackend;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #now: () => number;
  #lastSweep = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  hit(key: string, windowMs: number): RateLimitHit {
    const now = this.#now();
    if (now - this.#lastSweep > windowMs) this.#sweep(now);
    let w = this.#windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [k, w] of this.#windows) if (w.resetAt <= now) this.#windows.delete(k);
  }

  backend(): RateLimitBackend {
    return 'memory';
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }
}
