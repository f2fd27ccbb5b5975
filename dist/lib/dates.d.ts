/**
 * Parses an API date bound. `YYYY-MM-DD` is a UTC day: as a lower bound its first
 * millisecond, as an upper bound (`end`) its last, so `*_to=2026-11-20` covers that whole day.
 * A date-time without offset is UTC. Impossible dates (2026-02-30) are rejected. Returns
 * epoch milliseconds, or null when the text is not a valid date.
 */
export declare function parseDateBound(text: string, bound: 'start' | 'end'): number | null;
/** Reads the named date bounds of a query; a bad one is a 422 naming the field. */
export declare function dateRange(query: Record<string, unknown>, fromName: string, toName: string): {
    from: number | null;
    to: number | null;
};
