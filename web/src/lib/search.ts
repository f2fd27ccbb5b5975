/** URL search helpers: the URL holds filters, sorts and pages, validated here so pages get typed values. */

export function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

export function pageSearch(search: Record<string, unknown>): { page?: number } {
  const page = positiveInt(search.page);
  return page && page > 1 ? { page } : {};
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
