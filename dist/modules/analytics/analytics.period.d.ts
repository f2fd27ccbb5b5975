export declare const DAY_MS = 86400000;
export declare const WEEK_MS: number;
/** 1970-01-05 was a Monday: week buckets are whole weeks counted from it, the same integer SQL on both engines. */
export declare const MONDAY_EPOCH_MS: number;
export declare const PRESETS: readonly ['today', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'this_year', 'last_year'];
export type Preset = (typeof PRESETS)[number];
/** A half-open UTC interval [from, to) in epoch milliseconds. */
export interface Period {
    from: number;
    to: number;
}
export interface ResolvedRange {
    range: Preset | 'custom';
    current: Period;
    previous: Period;
}
/** Monday 00:00 UTC of the ISO week holding `ms`. */
export declare function startOfIsoWeek(ms: number): number;
/** The preset's period at `now` and the calendar period before it. */
export declare function presetPeriods(preset: Preset, now: number): {
    current: Period;
    previous: Period;
};
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
export declare function resolveRange(query: RangeQuery, now: number): ResolvedRange;
export declare function wantsCompare(value: string | undefined): boolean;
/** ISO-8601 week label (`2026-W53`) of the week starting on the Monday `monday`. */
export declare function isoWeekLabel(monday: number): string;
/** Week number since 1970-01-05 (as the SQL buckets it) of a Monday. */
export declare function weekIndex(ms: number): number;
/** The Mondays of every ISO week that overlaps the period, in order. */
export declare function weeksOf(p: Period): number[];
/** 100 × part / whole to one decimal, half away from zero, exact in integers (no float drift at .x5). */
export declare function percentOf(part: number, whole: number): number;
export interface Change {
    absolute: number;
    percent: number | null;
    note: string | null;
}
/** decisions.md: absolute = current − previous; percent to 1 decimal; zero baseline → null + note. */
export declare function change(current: number, previous: number): Change;
/** The change of a rate (percentage points, 1 decimal); null when either period has no rate. */
export declare function rateChange(current: number | null, previous: number | null): Change | null;
/** A change object for every numeric leaf of `current` (nested objects mirrored). */
export declare function changesOf<T extends object>(current: T, previous: T): Record<string, unknown>;
export declare function winRate(won: number, lost: number): number | null;
