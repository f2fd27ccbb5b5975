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

const DAY_MS = 86_400_000;
/** 0000-01-01 and 10000-01-01 in epoch milliseconds: the years toISOString writes with four digits. */
const FOUR_DIGIT_YEARS = [-62_167_219_200_000, 253_402_300_800_000] as const;
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));
const pad3 = (n: number) => (n < 10 ? '00' + n : n < 100 ? '0' + n : String(n));

/**
 * `Date#toISOString` of epoch milliseconds, the same text, written by arithmetic: every record's
 * timestamps go through here on each read, and a Date per value was a measurable share of a single
 * record's answer. Outside years 0000–9999 (and for NaN), toISOString itself answers.
 */
export function iso(ms: number): string;
export function iso(ms: number | null | undefined): string | null;
export function iso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const t = Number(ms);
  if (!(t >= FOUR_DIGIT_YEARS[0] && t < FOUR_DIGIT_YEARS[1]) || !Number.isInteger(t)) return new Date(t).toISOString();
  const days = Math.floor(t / DAY_MS);
  let rest = t - days * DAY_MS;
  // The civil date of a day number (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const y = String(year);
  return `${'0000'.slice(y.length)}${y}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(millis)}Z`;
}
