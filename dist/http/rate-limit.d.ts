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
    hit(key: string, windowMs: number): Promise<RateLimitHit>;
    backend(): RateLimitBackend;
    close(): Promise<void>;
}
export declare class MemoryRateLimitStore implements RateLimitStore {
    #private;
    constructor(now?: () => number);
    hit(key: string, windowMs: number): Promise<RateLimitHit>;
    backend(): RateLimitBackend;
    close(): Promise<void>;
}
