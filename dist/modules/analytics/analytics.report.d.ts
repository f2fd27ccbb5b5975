import type { Executor } from '../../db/database.ts';
import type { Period, ResolvedRange } from './analytics.period.ts';
export interface ReportContext {
    db: Executor;
    accountId: number;
    /** The injected clock's reading for this request: "now" metrics and presets use it. */
    now: number;
    range: ResolvedRange;
    compare: boolean;
}
export declare function isoPeriod(p: Period): {
    from: string;
    to: string;
};
/**
 * The shape every analytics response shares: range, period, the period metrics, the "now"
 * metrics, and with compare `previous` and `change`. Period metrics of both periods and the
 * now metrics are independent queries, started together (PostgreSQL runs them on separate
 * pool connections).
 */
export declare function buildReport<M extends object, N extends object>(ctx: ReportContext, periodMetrics: (p: Period) => Promise<M>, nowMetrics: () => Promise<N>, changes: (current: M, previous: M) => object, extra?: object): Promise<Record<string, unknown>>;
/** Sums of numeric columns over aggregated rows (a handful of groups, never raw records). */
export declare function sumRows<K extends string>(rows: Record<string, unknown>[], keys: readonly K[]): Record<K, number>;
export declare function renderCents(cents: number): string;
/** Ascending ids with null last: the same order on both engines, whatever their NULL ordering. */
export declare function byIdNullLast(a: number | null, b: number | null): number;
