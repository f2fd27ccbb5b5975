import { sql } from 'kysely';
import { MONDAY_EPOCH_MS, WEEK_MS } from './analytics.period.js';
// Literal status lists (not parameters), so PostgreSQL can match the partial indexes of
// migration 2026-11-21T0160_analytics, whose predicates are written the same way.
export const OPEN_DEAL = sql `status in ('new', 'qualified', 'proposal', 'negotiation')`;
export const CLOSED_DEAL = sql `status in ('won', 'lost')`;
export const OPEN_TICKET = sql `status in ('open', 'pending')`;
/** `column >= from and column < to`: the half-open period on an epoch-millisecond column. */
export function within(column, p) {
    return sql `${sql.ref(column)} >= ${p.from} and ${sql.ref(column)} < ${p.to}`;
}
/** An optional `and …` clause. */
export function andIf(condition, clause) {
    return condition ? sql `and ${clause()}` : sql ``;
}
/** ISO week bucket (weeks since Monday 1970-01-05): integer division, identical on both engines. */
export function weekBucket(column) {
    return sql `((${sql.ref(column)} - ${sql.lit(MONDAY_EPOCH_MS)}) / ${sql.lit(WEEK_MS)})`;
}
/** Runs a raw aggregate and reads every value back as a number (PostgreSQL returns bigint/numeric as text otherwise mapped). */
export async function rows(db, query) {
    return (await query.execute(db)).rows;
}
export function num(v) {
    return v === null || v === undefined ? 0 : Number(v);
}
export function nullableId(v) {
    return v === null || v === undefined ? null : Number(v);
}
