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
    backend() {
        return 'memory';
    }
    async close() {
        this.#windows.clear();
    }
}
