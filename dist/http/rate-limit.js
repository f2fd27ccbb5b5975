import { Redis } from 'ioredis';
export class MemoryRateLimitStore {
    #windows = new Map();
    #now;
    #lastSweep = 0;
    constructor(now = Date.now) {
        this.#now = now;
    }
    async hit(key, windowMs) {
        const now = this.#now();
        if (now - this.#lastSweep > windowMs)
            this.#sweep(now);
        let w = this.#windows.get(key);
        if (!w || w.resetAt <= now) {
            w = { count: 0, resetAt: now + windowMs };
            this.#windows.set(key, w);
        }
        w.count += 1;
        return { count: w.count, resetMs: w.resetAt - now };
    }
    #sweep(now) {
        this.#lastSweep = now;
        for (const [k, w] of this.#windows)
            if (w.resetAt <= now)
                this.#windows.delete(k);
    }
    async close() {
        this.#windows.clear();
    }
}
// One round trip, atomic: count the hit and start the window's expiry on its first hit.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;
/** Counters in Redis, so every API process shares one budget per key. */
export class RedisRateLimitStore {
    #redis;
    constructor(url) {
        this.#redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
        this.#redis.defineCommand('custopsHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    }
    async hit(key, windowMs) {
        const [count, ttl] = (await this.#redis.custopsHit(`custops:rl:${key}`, windowMs));
        return { count, resetMs: ttl };
    }
    async close() {
        await this.#redis.quit().catch(() => this.#redis.disconnect());
    }
}
