export interface RateLimitHit {
    /** Requests counted in the current window, this one included. */
    count: number;
    /** Milliseconds until the window resets. */
    resetMs: number;
}
/** A fixed one-minute window per key. */
export interface RateLimitStore {
    hit(key: string, windowMs: number): Promise<RateLimitHit>;
    close(): Promise<void>;
}
export declare class MemoryRateLimitStore implements RateLimitStore {
    #private;
    constructor(now?: () => number);
    hit(key: string, windowMs: number): Promise<RateLimitHit>;
    close(): Promise<void>;
}
/** Counters in Redis, so every API process shares one budget per key. */
export declare class RedisRateLimitStore implements RateLimitStore {
    #private;
    constructor(url: string);
    hit(key: string, windowMs: number): Promise<RateLimitHit>;
    close(): Promise<void>;
}
