import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';

export const HEALTH_WINDOW_MS = 24 * 3_600_000;

export interface EndpointHealthView {
  endpoint_id: number;
  attempts: number;
  succeeded: number;
  failed: number;
  success_rate: number | null;
  last_failure_at: string | null;
  last_failure_error: string | null;
  last_failure_status: number | null;
  pending: number;
}

/**
 * Per endpoint of the account, over the last 24 hours of attempts: how many, how many succeeded
 * (2xx), the success rate (percent, 1 decimal; null without attempts), the latest failure, and
 * how many deliveries wait for an attempt now.
 */
export async function endpointHealth(db: Executor, accountId: number, now: number): Promise<EndpointHealthView[]> {
  const since = now - HEALTH_WINDOW_MS;
  const [endpoints, counts, failures, pending] = await Promise.all([
    db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', accountId).orderBy('id').execute(),
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['d.endpoint_id', (eb) => eb.fn.countAll<number>().as('n'), sql<number>`sum(case when a.error is null then 1 else 0 end)`.as('ok')])
      .where('a.account_id', '=', accountId)
      .where('a.requested_at', '>=', since)
      .groupBy('d.endpoint_id')
      .execute(),
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['d.endpoint_id', 'a.requested_at', 'a.error', 'a.status_code'])
      .where('a.account_id', '=', accountId)
      .where('a.requested_at', '>=', since)
      .where('a.error', 'is not', null)
      .orderBy('a.requested_at', 'desc')
      .orderBy('a.id', 'desc')
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('account_id', '=', accountId)
      .where('next_attempt_at', 'is not', null)
      .where('next_attempt_at', '<=', now)
      .groupBy('endpoint_id')
      .execute(),
  ]);
  const countBy = new Map(counts.map((c) => [Number(c.endpoint_id), c]));
  const pendingBy = new Map(pending.map((p) => [Number(p.endpoint_id), Number(p.n)]));
  const lastFailure = new Map<number, (typeof failures)[number]>();
  for (const f of failures) if (!lastFailure.has(Number(f.endpoint_id))) lastFailure.set(Number(f.endpoint_id), f);
  return endpoints.map(({ id }) => {
    const c = countBy.get(Number(id));
    const attempts = Number(c?.n ?? 0);
    const succeeded = Number(c?.ok ?? 0);
    const f = lastFailure.get(Number(id));
    return {
      endpoint_id: Number(id),
      attempts,
      succeeded,
      failed: attempts - succeeded,
      success_rate: attempts === 0 ? null : Math.round((1000 * succeeded) / attempts) / 10,
      last_failure_at: f ? iso(f.requested_at) : null,
      last_failure_error: f?.error ?? null,
      last_failure_status: f ? f.status_code : null,
      pending: pendingBy.get(Number(id)) ?? 0,
    };
  });
}
