export const systemClock = { now: () => Date.now() };
/** A clock tests can set and advance. */
export class FixedClock {
    #ms;
    constructor(start) {
        this.#ms = typeof start === 'number' ? start : new Date(start).getTime();
    }
    now() {
        return this.#ms;
    }
    set(to) {
        this.#ms = typeof to === 'number' ? to : new Date(to).getTime();
    }
    advance(ms) {
        this.#ms += ms;
    }
}
export function iso(ms) {
    return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}
