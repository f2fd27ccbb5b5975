import type { Db, Executor } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import * as pgBatch from './dispatch.postgres.ts';
import * as sqliteBatch from './dispatch.sqlite.ts';
import { dueUnleased } from './due.ts';

/**
 * Claiming due deliveries. A claim is a lease (`locked_until`): the worker owns the delivery
 * until then, and one that dies mid-attempt loses it when the lease runs out (at least once).
 * On PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED, so workers never take the same row.
 */

export interface ClaimedDelivery {
  id: number;
  account_id: number;
  endpoint_id: number;
  event_type: string;
  next_trigger: 'manual' | null;
  /** Attempts recorded before this claim. */
  attempts: number;
  is_test: boolean | number;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: number | null;
  public_id: string;
  payload: string;
}

export interface ClaimPlan {
  /** Slots free in this process. */
  room: number;
  perEndpoint: number;
  /** Attempts in flight in this process, by endpoint. */
  inflight: ReadonlyMap<number, number>;
}

/**
 * Claims due deliveries of enabled endpoints within the caps. First the oldest due rows (the
 * cheap, common case); when those belong to endpoints already at their cap, the other endpoints
 * with due work are served from their own index range, so one endpoint's backlog is never scanned.
 */
export function claimDue(db: Db, now: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedDelivery[]> {
  return engineOf(db).multiTableStatements ? claimDuePostgres(db, now, leaseMs, plan) : sqliteBatch.claimDue(db, now, leaseMs, plan);
}

/** Enabled endpoints, other than `full`, with due deliveries besides `taken`. */
async function endpointsWithDueWork(db: Executor, now: number, taken: number[], full: number[]): Promise<number[]> {
  let q = db
    .selectFrom('webhook_endpoints as w')
    .select('w.id')
    .where('w.enabled', '=', true)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('webhook_deliveries as d')
          .select('d.id')
          .whereRef('d.endpoint_id', '=', 'w.id')
          .where('d.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
          .$if(taken.length > 0, (b) => b.where('d.id', 'not in', taken)),
      ),
    );
  if (full.length) q = q.where('w.id', 'not in', full);
  return (await q.execute()).map((r) => r.id);
}

/**
 * The same plan on PostgreSQL in single statements: the head claimed in one round trip, and only
 * when it was cut short or left rows for a full endpoint, the other endpoints with due work, each
 * claimed from its own index range in one more.
 */
async function claimDuePostgres(db: Db, now: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedDelivery[]> {
  const inFlightTotal = [...plan.inflight.values()].reduce((a, b) => a + b, 0);
  const headLimit = Math.min(plan.room, plan.perEndpoint) + inFlightTotal;
  const lockedUntil = now + leaseMs;
  const head = await pgBatch.claimHead(db, now, lockedUntil, { headLimit, room: plan.room, perEndpoint: plan.perEndpoint, held: plan.inflight });
  const claimed = head.claimed;
  let room = plan.room - claimed.length;
  if (room <= 0 || (head.refused === 0 && head.headRows < headLimit)) return claimed;
  const planned = new Map(plan.inflight);
  for (const d of claimed) planned.set(d.endpoint_id, (planned.get(d.endpoint_id) ?? 0) + 1);
  const full = [...planned].filter(([, n]) => n >= plan.perEndpoint).map(([id]) => id);
  const taken = claimed.map((d) => d.id);
  for (const endpointId of await endpointsWithDueWork(db, now, taken, full)) {
    if (room <= 0) break;
    const want = Math.min(room, plan.perEndpoint - (planned.get(endpointId) ?? 0));
    const rows = await pgBatch.claimFromEndpoint(db, endpointId, now, lockedUntil, want);
    claimed.push(...rows);
    planned.set(endpointId, (planned.get(endpointId) ?? 0) + rows.length);
    room -= rows.length;
  }
  return claimed;
}

/** Gives back claims that were never attempted (graceful stop), so any worker may take them at once. */
export async function releaseLeases(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', 'in', ids).execute();
}

/** Whether a due delivery of an enabled endpoint waits unleased (what a claim would take). */
export async function hasDueUnleased(db: Executor, now: number): Promise<boolean> {
  return (await dueUnleased(db, now).executeTakeFirst()) !== undefined;
}

/** For the loop's idle check and the metrics. */
export async function hasDueWork(db: Db, now: number): Promise<boolean> {
  const ev = await db.selectFrom('events').select('id').where('dispatched_at', 'is', null).limit(1).executeTakeFirst();
  return ev !== undefined || hasDueUnleased(db, now);
}
