/**
 * A small seeded PRNG (mulberry32): the same seed always yields the same demo data, with no
 * dependency and no global state.
 */
export declare class Random {
    #private;
    constructor(seed: number);
    /** A float in [0, 1). */
    next(): number;
    /** An integer in [min, max], both inclusive. */
    int(min: number, max: number): number;
    pick<T>(items: readonly T[]): T;
    chance(probability: number): boolean;
    /** `count` distinct items, in a random order. */
    sample<T>(items: readonly T[], count: number): T[];
    /** Letters and digits, for external ids that look like a payment provider's. */
    token(length: number): string;
}
