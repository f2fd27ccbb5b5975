import { type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { type Period } from './analytics.period.ts';
export declare const RANKING_METRICS: readonly ['deals_created', 'deals_won', 'activities', 'tickets_created', 'support_updates', 'open_deals', 'open_tickets'];
export type RankingMetric = (typeof RANKING_METRICS)[number];
/** Rankings that describe "now" rather than the period (no previous period, no change). */
export declare const NOW_METRICS: RankingMetric[];
interface Segments {
    /** Whole calendar years, [a, b) in days since 1970-01-01. */
    years: {
        a: number;
        b: number;
    }[];
    /** Whole calendar months outside those years. */
    months: {
        a: number;
        b: number;
    }[];
    /** What is left: periods read from the records. */
    raw: Period[];
}
/**
 * A whole-day period cut into whole UTC calendar years and months (answered by the per-org
 * rollup) and the days around them (answered by the records); other periods are all records.
 */
export declare function segments(p: Period): Segments;
/**
 * (org_id, n) rows counting records per org over the period, possibly several per org: the
 * per-org rollup `fact` (by month) and `${fact}_year` (by year) for the whole months and years
 * inside it, and `from` (a `table where …` over a period) for the days around them.
 */
export declare function perOrgCounts(accountId: number, p: Period, fact: string | undefined, from: (q: Period) => RawBuilder<unknown>): RawBuilder<unknown>;
/** The top `limit` orgs by the metric (ties by org id), and how many orgs have a non-zero value. */
export declare function ranking(db: Executor, accountId: number, metric: RankingMetric, p: Period, limit: number): Promise<{
    org_id: number;
    n: number;
    orgs: number;
}[]>;
/** Orgs with an open (or pending) ticket and an open deal now: the first `limit` by open tickets, open deals, id; and their number. */
export declare function openSupportAndDeals(db: Executor, accountId: number, limit: number): Promise<{
    org_id: number;
    open_tickets: number;
    open_deals: number;
    orgs: number;
}[]>;
export declare function orgNames(db: Executor, accountId: number, ids: number[]): Promise<{
    id: number;
    name: string;
}[]>;
export {};
