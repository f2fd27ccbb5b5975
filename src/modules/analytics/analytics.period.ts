import { parseDateBound } from '../../lib/dates.ts';
import { validationError } from '../../lib/errors.ts';

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05 was a Monday: week buckets are whole weeks counted from it, the same integer SQL on both engines. */
export const MONDAY_EPOCH_MS = 4 * DAY_MS;

export const PRESETS = ['today', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'this_year', 'last_year'] as const;
export type Preset = (typeof PRESETS)[number];

/** A half-open UTC interval [from, to) in epoch milliseconds. */
export interface Period {
  from: number;
  to: number;
}

/** Whether the period is made of whole UTC days: the rollups answer those; other periods read the records. */
export function wholeDays(p: Period): boolean {
  return p.from % DAY_MS === 0 && p.to % DAY_MS === 0;
}

export interface Segments {
  /** Whole calendar years, [a, b) in days since 1970-01-01. */
  years: { a: number; b: number }[];
  /** Whole calendar months outside those years. */
  months: { a: number; b: number }[];
  /** What is left: periods read from the records. */
  raw: Period[];
}

const day = (ms: number) => ms / DAY_MS;

/** Whole months of [from, to) (ms, whole days) and the days around them. */
function splitMonths(from: number, to: number, out: Segments): void {
  const f = new Date(from);
  const t = new Date(to);
  const a = f.getUTCDate() === 1 ? from : Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1);
  const b = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1);
  if (a >= b) {
    if (from < to) out.raw.push({ from, to });
    return;
  }
  if (from < a) out.raw.push({ from, to: a });
  out.months.push({ a: day(a), b: day(b) });
  if (b < to) out.raw.push({ from: b, to });
}

/**
 * A whole-day period cut into whole UTC calendar years, whole months and the days around them
 * (the rollups' levels: docs/design.md#analytics); other periods are all `raw`.
 */
export function segments(p: Period): Segments {
  const out: Segments = { years: [], months: [], raw: [] };
  if (!wholeDays(p)) {
    out.raw.push(p);
    return out;
  }
  const f = new Date(p.from);
  const a = f.getUTCMonth() === 0 && f.getUTCDate() === 1 ? p.from : Date.UTC(f.getUTCFullYear() + 1, 0, 1);
  const b = Date.UTC(new Date(p.to).getUTCFullYear(), 0, 1);
  if (a >= b) {
    splitMonths(p.from, p.to, out);
    return out;
  }
  splitMonths(p.from, a, out);
  out.years.push({ a: day(a), b: day(b) });
  splitMonths(b, p.to, out);
  return out;
}

export interface ResolvedRange {
  range: Preset | 'custom';
  current: Period;
  previous: Period;
}

const MAX_YEARS = 10;

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Monday 00:00 UTC of the ISO week holding `ms`. */
export function startOfIsoWeek(ms: number): number {
  const day = startOfDay(ms);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday * DAY_MS;
}

function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1);
}

/** The preset's period at `now` and the calendar period before it. */
export function presetPeriods(preset: Preset, now: number): { current: Period; previous: Period } {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const q = Math.floor(m / 3) * 3;
  const months = (year: number, month: number, n: number): Period => ({ from: monthStart(year, month), to: monthStart(year, month + n) });
  switch (preset) {
    case 'today': {
      const from = startOfDay(now);
      return { current: { from, to: from + DAY_MS }, previous: { from: from - DAY_MS, to: from } };
    }
    case 'this_week':
    case 'last_week': {
      const monday = startOfIsoWeek(now) - (preset === 'last_week' ? WEEK_MS : 0);
      return { current: { from: monday, to: monday + WEEK_MS }, previous: { from: monday - WEEK_MS, to: monday } };
    }
    case 'this_month':
      return { current: months(y, m, 1), previous: months(y, m - 1, 1) };
    case 'last_month':
      return { current: months(y, m - 1, 1), previous: months(y, m - 2, 1) };
    case 'this_quarter':
      return { current: months(y, q, 3), previous: months(y, q - 3, 3) };
    case 'this_year':
      return { current: months(y, 0, 12), previous: months(y - 1, 0, 12) };
    case 'last_year':
      return { current: months(y - 1, 0, 12), previous: months(y - 2, 0, 12) };
  }
}

export interface RangeQuery {
  range?: Preset;
  from?: string;
  to?: string;
}

/**
 * The period a request asks for. `from`/`to` override `range`; `from` is inclusive and `to`
 * inclusive as in every date filter (a bare date covers its whole day), turned into an
 * exclusive end. `from` alone runs to the end of today; `to` alone is refused. The previous
 * period of a custom range has the same length and ends where the range starts.
 */
export function resolveRange(query: RangeQuery, now: number): ResolvedRange {
  const hasFrom = query.from !== undefined && query.from !== '';
  const hasTo = query.to !== undefined && query.to !== '';
  if (!hasFrom && !hasTo) {
    const preset = query.range ?? 'this_month';
    return { range: preset, ...presetPeriods(preset, now) };
  }
  const fields: Record<string, string> = {};
  const from = hasFrom ? parseDateBound(query.from!, 'start') : null;
  const toInclusive = hasTo ? parseDateBound(query.to!, 'end') : null;
  if (!hasFrom) fields.from = 'required';
  else if (from === null) fields.from = 'invalid_date';
  if (hasTo && toInclusive === null) fields.to = 'invalid_date';
  if (Object.keys(fields).length) throw validationError(fields);
  const start = from!;
  const end = toInclusive === null ? startOfDay(now) + DAY_MS : toInclusive + 1;
  if (start < 0) throw validationError({ from: 'too_small' }, 'from must not be before 1970-01-01.');
  if (start >= end) throw validationError({ from: 'after_to' }, 'from is after to.');
  const limit = new Date(start);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_YEARS);
  if (end > limit.getTime()) throw validationError({ to: 'range_too_long' }, `The range is longer than ${MAX_YEARS} years.`);
  const length = end - start;
  return { range: 'custom', current: { from: start, to: end }, previous: { from: start - length, to: start } };
}

export function wantsCompare(value: string | undefined): boolean {
  return value === '1' || value === 'true' || value === 'previous';
}

/** ISO-8601 week label (`2026-W53`) of the week starting on the Monday `monday`. */
export function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Week number since 1970-01-05 (as the SQL buckets it) of a Monday. */
export function weekIndex(ms: number): number {
  return Math.floor((ms - MONDAY_EPOCH_MS) / WEEK_MS);
}

/** The Mondays of every ISO week that overlaps the period, in order. */
export function weeksOf(p: Period): number[] {
  const out: number[] = [];
  for (let monday = startOfIsoWeek(p.from); monday < p.to; monday += WEEK_MS) out.push(monday);
  return out;
}

/** 100 × part / whole to one decimal, half away from zero, exact in integers (no float drift at .x5). */
export function percentOf(part: number, whole: number): number {
  const n = 1000 * Math.abs(part);
  const w = Math.abs(whole);
  let q = Math.floor(n / w);
  if (2 * (n - q * w) >= w) q += 1;
  const sign = Math.sign(part) * Math.sign(whole);
  return (sign * q) / 10 || 0;
}

export interface Change {
  absolute: number;
  percent: number | null;
  note: string | null;
}

/** docs/design.md#analytics: absolute = current − previous; percent to 1 decimal; zero baseline → null + note. */
export function change(current: number, previous: number): Change {
  const absolute = current - previous;
  if (previous === 0) return current === 0 ? { absolute: 0, percent: 0, note: null } : { absolute, percent: null, note: 'zero_baseline' };
  return { absolute, percent: percentOf(absolute, previous), note: null };
}

/** The change of a rate (percentage points, 1 decimal); null when either period has no rate. */
export function rateChange(current: number | null, previous: number | null): Change | null {
  if (current === null || previous === null) return null;
  const moved = change(current, previous);
  return { ...moved, absolute: Math.round(moved.absolute * 10) / 10 };
}

/** A change object for every numeric leaf of `current` (nested objects mirrored). */
export function changesOf<T extends object>(current: T, previous: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current)) {
    const before = (previous as Record<string, unknown>)[key];
    if (typeof value === 'number') out[key] = change(value, Number(before));
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = changesOf(value, before as object);
  }
  return out;
}

export function winRate(won: number, lost: number): number | null {
  return won + lost === 0 ? null : percentOf(won, won + lost);
}
