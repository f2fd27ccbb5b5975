/** The source of "now": injected everywhere so tests can fix time (analytics presets, retries, expiry). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class FixedClock implements Clock {
  #ms: number;
  constructor(start: number | string | Date) {
    this.#ms = typeof start === 'number' ? start : new Date(start).getTime();
  }
  now(): number {
    return this.#ms;
  }
  set(to: number | string | Date): void {
    this.#ms = typeof to === 'number' ? to : new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

export function iso(ms: number): string;
export function iso(ms: number | null | undefined): string | null;
export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}
