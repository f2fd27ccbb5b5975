// What the deal-activities load left in the database, counted the same way on both engines.
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';

export interface WriteCounts {
  /** Activity rows of the deal. */
  activities: number;
  /** Outbox rows `deal.activity.created` whose payload names the deal. */
  events: number;
  /** Idempotency records with the prefix, finished with a 201. */
  keys_201: number;
  /** Idempotency records with the prefix in any state (a replay must add none). */
  keys: number;
  /** Idempotency records with the prefix still claimed: a request that never finished. */
  keys_running: number;
}

/** Counts for one deal, rows created in [from, to] (epoch ms; both servers and this process share the clock). */
export async function countWrites(
  h: DatabaseHandle,
  where: { accountId: number; dealId: number; keyPrefix: string; from?: number; to?: number },
): Promise<WriteCounts> {
  const from = where.from ?? 0;
  const to = where.to ?? Number.MAX_SAFE_INTEGER;
  const dealOfPayload = h.dialect === 'sqlite' ? sql<number>`json_extract(payload, '$.deal_id')` : sql<number>`(payload::jsonb ->> 'deal_id')::bigint`;
  const activities = await h.db
    .selectFrom('deal_activities')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('account_id', '=', where.accountId)
    .where('deal_id', '=', where.dealId)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .executeTakeFirstOrThrow();
  const events = await h.db
    .selectFrom('events')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('account_id', '=', where.accountId)
    .where('event_type', '=', 'deal.activity.created')
    .where(dealOfPayload, '=', where.dealId)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .executeTakeFirstOrThrow();
  const keys = await h.db
    .selectFrom('idempotency_keys')
    .select((e) => [
      e.fn.countAll<number>().as('n'),
      e.fn.sum<number>(sql`case when state = 'done' and response_status = 201 then 1 else 0 end`).as('done'),
      e.fn.sum<number>(sql`case when state = 'running' then 1 else 0 end`).as('running'),
    ])
    .where('account_id', '=', where.accountId)
    .where('key', 'like', `${where.keyPrefix}%`)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .executeTakeFirstOrThrow();
  return {
    activities: Number(activities.n),
    events: Number(events.n),
    keys_201: Number(keys.done ?? 0),
    keys: Number(keys.n),
    keys_running: Number(keys.running ?? 0),
  };
}

/** Throws, naming every broken invariant, when `problems` is not empty. */
export function failUnless(what: string, problems: (string | false)[]): void {
  const broken = problems.filter((p): p is string => typeof p === 'string');
  if (broken.length) throw new Error(`${what}: ${broken.join('; ')}`);
}
