import { sql, type Insertable } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import type { DeliveryStatus, WebhookAttemptsTable } from '../../db/schema.ts';
import * as pgBatch from './dispatch.postgres.ts';
import * as sqliteBatch from './dispatch.sqlite.ts';

/** The dispatcher's writes around a delivery: fan-out from the outbox, and the attempt records (claims: claim.repository.ts). */

/**
 * Turns undispatched events into one delivery per (event, enabled subscribed endpoint). Given
 * `claim`, the new deliveries are leased to this process at birth when nothing due waits unleased
 * (dispatch.postgres.ts#fanOut says how). Each engine has its own statements: one on PostgreSQL,
 * prepared ones in one transaction on SQLite (dispatch.sqlite.ts).
 */
export function fanOut(db: Db, now: number, batch: number, claim: pgBatch.BirthClaim | null = null): Promise<pgBatch.FanOutResult> {
  return engineOf(db).multiTableStatements ? pgBatch.fanOut(db, now, batch, claim) : sqliteBatch.fanOut(db, now, batch, claim);
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
  /** Attempts recorded before this one, as seen at the claim. */
  previousAttempts: number;
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
      .where(
        'd.id',
        'in',
        items.map((i) => i.record.deliveryId),
      )
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
        account_id: a.accountId,
        delivery_id: a.deliveryId,
        attempt_number: outcome.attemptNumber,
        trigger: a.trigger,
        status_code: a.statusCode,
        error: a.error,
        response_body: a.responseBody,
        duration_ms: a.durationMs,
        requested_at: a.requestedAt,
      });
      updates.push({
        id: a.deliveryId,
        status: outcome.status,
        attempts: outcome.attemptNumber,
        next_attempt_at: outcome.nextAttemptAt,
        response_status: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        last_attempt_at: a.requestedAt,
      });
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
    sql`case ${sql.ref('id')} ${sql.join(
      updates.map((u) => sql`when ${u.id} then cast(${u[name]} as ${sql.raw(type)})`),
      sql` `,
    )} end`;
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
    .where(
      'id',
      'in',
      updates.map((u) => u.id),
    )
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
