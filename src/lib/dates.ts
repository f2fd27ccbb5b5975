import { validationError } from './errors.ts';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/**
 * Parses an API date bound. `YYYY-MM-DD` is a UTC day: as a lower bound its first
 * millisecond, as an upper bound (`end`) its last, so `*_to=2026-11-20` covers that whole day.
 * A date-time without offset is UTC. Impossible dates (2026-02-30) are rejected. Returns
 * epoch milliseconds, or null when the text is not a valid date.
 */
export function parseDateBound(text: string, bound: 'start' | 'end'): number | null {
  const day = DATE_ONLY.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!validDay(y, m, d)) return null;
    const start = Date.UTC(y, m - 1, d);
    return bound === 'start' ? start : start + DAY_MS - 1;
  }
  const dt = DATE_TIME.exec(text);
  if (!dt) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(dt[i] ?? 0));
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const fraction = dt[7] ? Math.floor(Number(dt[7]) * 1000) : 0;
  let ms = Date.UTC(y, mo - 1, d, h, mi, s, fraction);
  const zone = dt[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offH = Number(digits.slice(0, 2));
    const offM = Number(digits.slice(2, 4));
    if (offH > 23 || offM > 59) return null;
    ms -= sign * (offH * 60 + offM) * 60_000;
  }
  return Number.isFinite(ms) ? ms : null;
}

/** Reads the named date bounds of a query; a bad one is a 422 naming the field. */
export function dateRange(query: Record<string, unknown>, fromName: string, toName: string): { from: number | null; to: number | null } {
  const fields: Record<string, string> = {};
  const read = (name: string, bound: 'start' | 'end'): number | null => {
    const raw = query[name];
    if (raw === undefined || raw === '') return null;
    const ms = typeof raw === 'string' ? parseDateBound(raw, bound) : null;
    if (ms === null) fields[name] = 'invalid_date';
    return ms;
  };
  const from = read(fromName, 'start');
  const to = read(toName, 'end');
  if (Object.keys(fields).length) throw validationError(fields);
  if (from !== null && to !== null && from > to) throw validationError({ [fromName]: 'after_to' }, `${fromName} is after ${toName}.`);
  return { from, to };
}
