export const DAY_MS = 86_400_000;
/** Deals, activities, tickets and logs fall inside this many days before now. */
export const DEMO_WINDOW_DAYS = 120;
/** A random instant in the last `days` days (never in the future), whole seconds. */
export function recent(rnd, now, days) {
    return now - rnd.int(60, days * 86_400 - 1) * 1000;
}
/** Items of `rows` inserted a few hundred at a time (bound-parameter limits on both engines). */
export async function insertBatched(rows, insert) {
    for (let i = 0; i < rows.length; i += 200)
        await insert(rows.slice(i, i + 200));
}
