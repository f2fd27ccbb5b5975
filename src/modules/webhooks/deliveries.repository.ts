import type { Selectable } from 'kysely';
import { countRows } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable> & { event_public_id: string };
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export interface DeliveryFilter {
  eventType?: string;
  status?: DeliveryStatus;
  endpointId?: number;
  from: number | null;
  to: number | null;
}

/** The deliveries matching a filter; the count reads them alone (every delivery has its event: event_id is a not-null foreign key). */
function matching(db: Executor, accountId: number, f: DeliveryFilter) {
  let q = db.selectFrom('webhook_deliveries as d').where('d.account_id', '=', accountId);
  if (f.eventType) q = q.where('d.event_type', '=', f.eventType);
  if (f.status) q = q.where('d.status', '=', f.status);
  if (f.endpointId !== undefined) q = q.where('d.endpoint_id', '=', f.endpointId);
  if (f.from !== null) q = q.where('d.created_at', '>=', f.from);
  if (f.to !== null) q = q.where('d.created_at', '<=', f.to);
  return q;
}

export async function countDeliveries(db: Executor, accountId: number, f: DeliveryFilter): Promise<number> {
  return countRows(db, matching(db, accountId, f));
}

export function listDeliveries(db: Executor, accountId: number, f: DeliveryFilter, dir: 'asc' | 'desc', limit: number, offset: number): Promise<DeliveryRow[]> {
  return matching(db, accountId, f)
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.public_id as event_public_id')
    .orderBy('d.created_at', dir)
    .orderBy('d.id', dir)
    .limit(limit)
    .offset(offset)
    .execute();
}

export function findDelivery(db: Executor, accountId: number, id: number): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.public_id as event_public_id')
    .where('d.account_id', '=', accountId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export function attemptsOf(db: Executor, accountId: number, deliveryId: number): Promise<AttemptRow[]> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_number', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Asks for an attempt now, marked manual. */
export async function requeueDelivery(db: Executor, accountId: number, id: number, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, next_trigger: 'manual' })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Re-queues an endpoint's failed deliveries created in [since, until]. */
export async function requeueFailed(db: Executor, accountId: number, endpointId: number, since: number, until: number, now: number): Promise<number> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, next_trigger: 'manual' })
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .where('created_at', '<=', until)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function payloadOf(db: Executor, accountId: number, eventId: number): Promise<string> {
  const row = await db.selectFrom('events').select('payload').where('account_id', '=', accountId).where('id', '=', eventId).executeTakeFirstOrThrow();
  return row.payload;
}
