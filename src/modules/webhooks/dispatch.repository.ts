import { sql, type Insertable } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import type { DeliveryStatus, WebhookAttemptsTable } from '../../db/schema.ts';
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
export async function claimDue(db: Db, postgres: boolean, now: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    const planned = new Map(plan.inflight);
    const taken: number[] = [];
    let room = plan.room;
    let refused = false;
    const inFlightTotal = [...plan.inflight.values()].reduce((a, b) => a + b, 0);
    const headLimit = Math.min(room, plan.perEndpoint) + inFlightTotal;
    const due = trx
      .selectFrom('webhook_deliveries as d')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]));
    let head = due
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select(['d.id', 'd.endpoint_id'])
      .where('w.enabled', '=', true)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(headLimit);
    if (postgres) head = head.forUpdate('d').skipLocked();
    const candidates = await head.execute();
    for (const c of candidates) {
      const n = planned.get(c.endpoint_id) ?? 0;
      if (room > 0 && n < plan.perEndpoint) {
        planned.set(c.endpoint_id, n + 1);
        taken.push(c.id);
        room--;
      } else if (room > 0) refused = true;
    }
    // A full head may hide other endpoints' work behind it, as may rows refused for a full endpoint.
    if ((refused || candidates.length === headLimit) && room > 0) {
      const full = [...planned].filter(([, n]) => n >= plan.perEndpoint).map(([id]) => id);
      let others = trx
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
              .$if(taken.length > 0, (q) => q.where('d.id', 'not in', taken)),
          ),
        );
      if (full.length) others = others.where('w.id', 'not in', full);
      for (const { id: endpointId } of await others.execute()) {
        if (room <= 0) break;
        const want = Math.min(room, plan.perEndpoint - (planned.get(endpointId) ?? 0));
        let q = due.select('d.id').where('d.endpoint_id', '=', endpointId).$if(taken.length > 0, (b) => b.where('d.id', 'not in', taken)).orderBy('d.next_attempt_at').orderBy('d.id').limit(want);
        if (postgres) q = q.forUpdate().skipLocked();
        const rows = await q.execute();
        for (const r of rows) taken.push(r.id);
        planned.set(endpointId, (planned.get(endpointId) ?? 0) + rows.length);
        room -= rows.length;
      }
    }
    if (taken.length === 0) return [];
    await trx.updateTable('webhook_deliveries').set({ locked_until: now + leaseMs }).where('id', 'in', taken).execute();
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select([
        'd.id', 'd.account_id', 'd.endpoint_id', 'd.event_type', 'd.next_trigger', 'w.url', 'w.secret_encrypted', 'w.previous_secret_encrypted',
        'w.previous_secret_expires_at', 'e.public_id', 'e.payload',
      ])
      .where('d.id', 'in', taken)
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

export interface PendingRecord {
  record: AttemptRecord;
  decide: (attemptNumber: number, failingSince: number | null) => AttemptOutcome;
}

interface EndpointHealth {
  failing_since: number | null;
  change: { failing_since?: number | null; enabled?: boolean; disabled_reason?: string; updated_at?: number } | null;
}

/**
 * Writes a batch of attempts and their consequences in one transaction (group commit): each
 * delivery's state, and each endpoint's failure streak (5-day auto-disable) or a 410's disable.
 * A delivery whose endpoint was deleted meanwhile is skipped.
 */
export async function recordAttempts(db: Db, items: PendingRecord[]): Promise<void> {
  if (items.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select(['d.id', 'd.attempts', 'w.id as endpoint_id', 'w.failing_since'])
      .where('d.id', 'in', items.map((i) => i.record.deliveryId))
      .execute();
    const attempts = new Map(state.map((d) => [d.id, d.attempts]));
    const health = new Map<number, EndpointHealth>(state.map((e) => [e.endpoint_id, { failing_since: e.failing_since, change: null }]));
    const rows: Insertable<WebhookAttemptsTable>[] = [];
    const updates: DeliveryUpdate[] = [];
    for (const { record: a, decide } of items) {
      const previous = attempts.get(a.deliveryId);
      const ep = health.get(a.endpointId);
      if (previous === undefined || !ep) continue;
      const outcome = decide(previous + 1, ep.failing_since);
      attempts.set(a.deliveryId, outcome.attemptNumber);
      rows.push({
        account_id: a.accountId, delivery_id: a.deliveryId, attempt_number: outcome.attemptNumber, trigger: a.trigger, status_code: a.statusCode,
        error: a.error, response_body: a.responseBody, duration_ms: a.durationMs, requested_at: a.requestedAt,
      });
      updates.push({ id: a.deliveryId, status: outcome.status, attempts: outcome.attemptNumber, next_attempt_at: outcome.nextAttemptAt, response_status: a.statusCode, error: a.error, duration_ms: a.durationMs, last_attempt_at: a.requestedAt });
      trackHealth(ep, outcome, a.requestedAt);
    }
    if (rows.length === 0) return;
    await trx.insertInto('webhook_attempts').values(rows).execute();
    await updateDeliveries(trx, updates);
    for (const [id, ep] of health) {
      if (ep.change) await trx.updateTable('webhook_endpoints').set(ep.change).where('id', '=', id).execute();
    }
  });
}

interface DeliveryUpdate {
  id: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  response_status: number;
  error: string | null;
  duration_ms: number;
  last_attempt_at: number;
}

/** One UPDATE for the whole batch (a CASE per column, cast so PostgreSQL knows each type). */
async function updateDeliveries(trx: Executor, updates: DeliveryUpdate[]): Promise<void> {
  const column = (name: Exclude<keyof DeliveryUpdate, 'id'>, type: 'text' | 'integer' | 'bigint') =>
    sql`case ${sql.ref('id')} ${sql.join(updates.map((u) => sql`when ${u.id} then cast(${u[name]} as ${sql.raw(type)})`), sql` `)} end`;
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: column('status', 'text') as never,
      attempts: column('attempts', 'integer') as never,
      next_attempt_at: column('next_attempt_at', 'bigint') as never,
      response_status: column('response_status', 'integer') as never,
      error: column('error', 'text') as never,
      duration_ms: column('duration_ms', 'integer') as never,
      last_attempt_at: column('last_attempt_at', 'bigint') as never,
      next_trigger: null,
      locked_until: null,
    })
    .where('id', 'in', updates.map((u) => u.id))
    .execute();
}

function trackHealth(ep: EndpointHealth, outcome: AttemptOutcome, at: number): void {
  if (outcome.status === 'sent') {
    if (ep.failing_since !== null) ep.change = { ...ep.change, failing_since: null };
    ep.failing_since = null;
    return;
  }
  if (ep.failing_since === null) {
    ep.failing_since = at;
    ep.change = { ...ep.change, failing_since: at };
  }
  if (outcome.disabledReason) ep.change = { ...ep.change, enabled: false, disabled_reason: outcome.disabledReason, updated_at: at };
}

/** Gives back claims that were never attempted (graceful stop), so any worker may take them at once. */
export async function releaseLeases(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', 'in', ids).execute();
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
