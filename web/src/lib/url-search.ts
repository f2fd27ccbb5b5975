/**
 * Reading filters from the URL (TanStack Router's validateSearch): unknown or malformed values
 * are dropped rather than sent to the API, so a hand-edited URL still opens the page.
 */
export function optionalString(v: unknown): string | undefined {
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

export function optionalId(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function optionalEnum<T extends string>(v: unknown, values: readonly T[]): T | undefined {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined;
}

/** A `YYYY-MM-DD` day, as date inputs give and the API's date filters take. */
export function optionalDay(v: unknown): string | undefined {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined;
}

/** Drops undefined and empty values so the URL only holds what is set. */
export function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as Partial<T>;
}
