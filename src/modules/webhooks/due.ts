import type { Executor } from '../../db/database.ts';

/**
 * One due delivery of an enabled endpoint that no process holds: what a claim would take next. The
 * claim's check (claim.repository.ts#hasDueUnleased) and the SQLite fan-out's prepared copy of it
 * (dispatch.sqlite.ts) are this one query.
 */
export function dueUnleased(db: Executor, now: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    .where('w.enabled', '=', true)
    .limit(1);
}
