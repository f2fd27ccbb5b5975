/** The source of "now": injected everywhere so tests can fix time (analytics presets, retries, expiry). */
export interface Clock {
    now(): number;
}
export declare const systemClock: Clock;
/** A clock tests can set and advance. */
export declare class FixedClock implements Clock {
    #private;
    constructor(start: number | string | Date);
    now(): number;
    set(to: number | string | Date): void;
    advance(ms: number): void;
}
export declare function iso(ms: number): string;
export declare function iso(ms: number | null | undefined): string | null;
