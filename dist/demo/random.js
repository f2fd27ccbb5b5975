/**
 * A small seeded PRNG (mulberry32): the same seed always yields the same demo data, with no
 * dependency and no global state.
 */
export class Random {
    #state;
    constructor(seed) {
        this.#state = (seed * 0x9e3779b1) >>> 0;
    }
    /** A float in [0, 1). */
    next() {
        this.#state = (this.#state + 0x6d2b79f5) >>> 0;
        let t = this.#state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    /** An integer in [min, max], both inclusive. */
    int(min, max) {
        return min + Math.floor(this.next() * (max - min + 1));
    }
    pick(items) {
        return items[Math.floor(this.next() * items.length)];
    }
    chance(probability) {
        return this.next() < probability;
    }
    /** `count` distinct items, in a random order. */
    sample(items, count) {
        const copy = [...items];
        for (let i = copy.length - 1; i > 0; i--) {
            const j = Math.floor(this.next() * (i + 1));
            [copy[i], copy[j]] = [copy[j], copy[i]];
        }
        return copy.slice(0, Math.min(count, copy.length));
    }
    /** Letters and digits, for external ids that look like a payment provider's. */
    token(length) {
        const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
        let out = '';
        for (let i = 0; i < length; i++)
            out += alphabet[Math.floor(this.next() * alphabet.length)];
        return out;
    }
}
