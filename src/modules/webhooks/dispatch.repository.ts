import type { Db, Executor } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { enabledEndpointsOf } from './endpoints.repository.ts';

/**
 * The dispatcher's SQL. Work is claimed in short transactions; on PostgreSQL the rows are
 * locked FOR UPDATE SKIP LOCKED so several workers never take the same row, and a claim is a
 * lease (`locked_until`): a worker that dies mid-attempt loses it when the lease runs out.
 */

const INSERT_CHUNK = 500;

/** Turns undispatched events into one delivery per (event, enabled subscribed endpoint). Returns events handled. */
export async function fanOut(db: Db, postgres: boolean, now: number, batch: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('events').select(['id', 'account_id', 'event_type', 'created_at']).where('dispatched_at', 'is', null).orderBy('id').limit(batch);
    if (postgres) q = q.forUpdate().skipLocked();
    const events = await q.execute();
    if (events.length === 0) return 0;
    const endpoints = await enabledEndpointsOf(trx, [...new Set(events.map((e) => e.account_id))]);
    const subscribed = endpoints.map((e) => ({ ...e, types: new Set(JSON.parse(e.event_types) as string[]) }));
    const rows = events.flatMap((ev) =>
      subscribed
        .filter((ep) => ep.account_id === ev.account_id && ep.types.has(ev.event_type))
        .map((ep) => ({
          account_id: ev.account_id,
          endpoint_id: ep.id,
          event_id: ev.id,
          event_type: ev.event_type,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: now,
          created_at: ev.created_at,
        })),
    );
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx.insertInto('webhook_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing()).execute();
    }
    await trx.updateTable('events').set({ dispatched_at: now }).where('id', 'in', events.map((e) => e.id)).execute();
    return events.length;
  });
}

export interface ClaimedDelivery {
  id: number;
  account_id: number;
  endpoint_id: number;
  event_type: string;
  next_trigger: 'manual' | null;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: number | null;
  public_id: string;
  payload: string;
}

/**
 * Claims due deliveries of enabled endpoints. `take` decides, per candidate, whether this process
 * has room for it (the per-endpoint and global caps); only those are leased.
 */
export async function claimDue(
  db: Db,
  postgres: boolean,
  now: number,
  leaseMs: number,
  limit: number,
  saturated: number[],
  take: (endpointId: number) => boolean,
): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select(['d.id', 'd.endpoint_id'])
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
      .where('w.enabled', '=', true)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit);
    if (saturated.length) q = q.where('d.endpoint_id', 'not in', saturated);
    if (postgres) q = q.forUpdate('d').skipLocked();
    const candidates = await q.execute();
    const ids = candidates.filter((c) => take(c.endpoint_id)).map((c) => c.id);
    if (ids.length === 0) return [];
    await trx.updateTable('webhook_deliveries').set({ locked_until: now + leaseMs }).where('id', 'in', ids).execute();
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select([
        'd.id', 'd.account_id', 'd.endpoint_id', 'd.event_type', 'd.next_trigger', 'w.url', 'w.secret_encrypted', 'w.previous_secret_encrypted',
        'w.previous_secret_expires_at', 'e.public_id', 'e.payload',
      ])
      .where('d.id', 'in', ids)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .execute();
  });
}

export interface AttemptRecord {
  deliveryId: number;
  accountId: number;
  endpointId: number;
  trigger: 'scheduled' | 'manual';
  statusCode: number;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  requestedAt: number;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  attemptNumber: number;
  nextAttemptAt: number | null;
  disabledReason: string | null;
}

/**
 * Writes the attempt and its consequences in one transaction: the delivery's state, and the
 * endpoint's failure streak (5-day auto-disable) or a 410's immediate disable.
 */
export async function recordAttempt(
  db: Db,
  a: AttemptRecord,
  decide: (attemptNumber: number, failingSince: number | null) => AttemptOutcome,
): Promise<AttemptOutcome | null> {
  return db.transaction().execute(async (trx) => {
    const d = await trx.selectFrom('webhook_deliveries').select(['attempts']).where('id', '=', a.deliveryId).executeTakeFirst();
    const ep = await trx.selectFrom('webhook_endpoints').select(['failing_since']).where('id', '=', a.endpointId).executeTakeFirst();
    if (!d || !ep) return null; // the endpoint was deleted meanwhile
    const outcome = decide(d.attempts + 1, ep.failing_since);
    await trx
      .insertInto('webhook_attempts')
      .values({
        account_id: a.accountId,
        delivery_id: a.deliveryId,
        attempt_number: outcome.attemptNumber,
        trigger: a.trigger,
        status_code: a.statusCode,
        error: a.error,
        response_body: a.responseBody,
        duration_ms: a.durationMs,
        requested_at: a.requestedAt,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: outcome.attemptNumber,
        next_attempt_at: outcome.nextAttemptAt,
        next_trigger: null,
        response_status: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        last_attempt_at: a.requestedAt,
        locked_until: null,
      })
      .where('id', '=', a.deliveryId)
      .execute();
    await updateEndpointHealth(trx, a, outcome, ep.failing_since);
    return outcome;
  });
}

async function updateEndpointHealth(trx: Executor, a: AttemptRecord, outcome: AttemptOutcome, failingSince: number | null): Promise<void> {
  const ep = trx.updateTable('webhook_endpoints').where('id', '=', a.endpointId);
  if (outcome.status === 'sent') {
    if (failingSince !== null) await ep.set({ failing_since: null }).execute();
    return;
  }
  if (outcome.disabledReason) {
    await ep.set({ enabled: false, disabled_reason: outcome.disabledReason, updated_at: a.requestedAt, failing_since: failingSince ?? a.requestedAt }).execute();
  } else if (failingSince === null) {
    await ep.set({ failing_since: a.requestedAt }).execute();
  }
}

/** For the loop's idle check and the metrics. */
export async function hasDueWork(db: Db, now: number): Promise<boolean> {
  const ev = await db.selectFrom('events').select('id').where('dispatched_at', 'is', null).limit(1).executeTakeFirst();
  if (ev) return true;
  const d = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    .where('w.enabled', '=', true)
    .limit(1)
    .executeTakeFirst();
  return d !== undefined;
}
