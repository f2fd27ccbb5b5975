import type { Executor } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import type { Period, ResolvedRange } from './analytics.period.ts';

export interface ReportContext {
  db: Executor;
  accountId: number;
  /** The injected clock's reading for this request: "now" metrics and presets use it. */
  now: number;
  range: ResolvedRange;
  compare: boolean;
}

export function isoPeriod(p: Period): { from: string; to: string } {
  return { from: iso(p.from), to: iso(p.to) };
}

/**
 * The shape every analytics response shares: range, period, the period metrics, the "now"
 * metrics, and with compare `previous` and `change`. Period metrics of both periods and the
 * now metrics are independent queries, started together (PostgreSQL runs them on separate
 * pool connections).
 */
export async function buildReport<M extends object, N extends object>(
  ctx: ReportContext,
  periodMetrics: (p: Period) => Promise<M>,
  nowMetrics: () => Promise<N>,
  changes: (current: M, previous: M) => object,
  extra: object = {},
): Promise<Record<string, unknown>> {
  const { current, previous } = ctx.range;
  const [cur, prev, nowPart] = await Promise.all([periodMetrics(current), ctx.compare ? periodMetrics(previous) : Promise.resolve(null), nowMetrics()]);
  const out: Record<string, unknown> = { range: ctx.range.range, period: isoPeriod(current), ...extra, ...cur, ...nowPart };
  if (prev) {
    out.previous = { period: isoPeriod(previous), ...prev };
    out.change = changes(cur, prev);
  }
  return out;
}

/** Sums of numeric columns over aggregated rows (a handful of groups, never raw records). */
export function sumRows<K extends string>(rows: Record<string, unknown>[], keys: readonly K[]): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) for (const k of keys) out[k] += Number(r[k] ?? 0);
  return out;
}

export function renderCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const c = Math.abs(cents);
  return `${sign}${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}

/** Ascending ids with null last: the same order on both engines, whatever their NULL ordering. */
export function byIdNullLast(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}
