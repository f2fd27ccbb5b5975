import type { Db } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import { dateRange } from '../../lib/dates.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { listPage, type ListResult } from '../../lib/pagination.ts';
import { DEFAULT_PER_PAGE } from '../../lib/pagination.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import * as repo from './deliveries.repository.ts';
import { deliveryHeaders } from './signing.ts';
import { findEndpoint } from './endpoints.repository.ts';
import type { DeliveryListQueryInput, WebhookDeliveryView } from './webhooks.schemas.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import type { ModuleDeps } from '../../http/deps.ts';

export function toDeliveryView(r: repo.DeliveryRow): WebhookDeliveryView {
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_id: r.event_public_id,
    event_type: r.event_type,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: iso(r.next_attempt_at),
    response_status: r.response_status,
    error: r.error,
    duration_ms: r.duration_ms,
    created_at: iso(r.created_at),
    last_attempt_at: iso(r.last_attempt_at),
    test: Boolean(r.is_test),
  };
}

function toAttemptView(a: repo.AttemptRow, test: boolean) {
  return {
    id: a.id,
    attempt_number: a.attempt_number,
    // A test send's own attempts are stored as scheduled ones; a Retry of it stays manual.
    trigger: test && a.trigger === 'scheduled' ? 'test' : a.trigger,
    status_code: a.status_code,
    error: a.error,
    response_body: a.response_body,
    duration_ms: a.duration_ms,
    requested_at: iso(a.requested_at),
  };
}

/** `limit` is an alias of `per_page`; with both, the smaller wins. */
export async function listDeliveries(db: Db, accountId: number, q: DeliveryListQueryInput): Promise<ListResult<WebhookDeliveryView>> {
  const { from, to } = dateRange(q, 'from', 'to');
  if (q.endpoint_id !== undefined && !(await findEndpoint(db, accountId, q.endpoint_id))) throw notFound('webhook_endpoint_not_found', q.endpoint_id);
  const perPage = Math.min(q.per_page ?? DEFAULT_PER_PAGE, q.limit ?? Number.MAX_SAFE_INTEGER);
  const page = { page: q.page ?? 1, per_page: q.per_page === undefined && q.limit !== undefined ? q.limit : perPage };
  const filter: repo.DeliveryFilter = { eventType: q.event_type, status: q.status as DeliveryStatus | undefined, endpointId: q.endpoint_id, from, to };
  const dir = q.direction === 'asc' ? 'asc' : 'desc';
  return listPage(
    page,
    () => repo.countDeliveries(db, accountId, filter),
    (limit, offset) => repo.listDeliveries(db, accountId, filter, dir, limit, offset),
    (rows) => rows.map(toDeliveryView),
  );
}

export async function getDelivery(db: Db, accountId: number, id: number) {
  const row = await repo.findDelivery(db, accountId, id);
  if (!row) throw notFound('webhook_delivery_not_found', id);
  const attempts = await repo.attemptsOf(db, accountId, id);
  const payload = await repo.payloadOf(db, accountId, row.event_id);
  const test = Boolean(row.is_test);
  return {
    ...toDeliveryView(row),
    attempts_log: attempts.map((a) => toAttemptView(a, test)),
    payload: JSON.parse(payload) as Record<string, unknown>,
    request_headers: sentHeaders(row, payload, row.last_attempt_at ?? row.next_attempt_at ?? row.created_at),
  };
}

const MASK = '••••••••';

/** The headers an attempt carried, rebuilt (they are not stored) with every signature masked. */
function sentHeaders(row: repo.DeliveryRow, payload: string, at: number): Record<string, string> {
  const headers = deliveryHeaders({
    body: payload,
    eventType: row.event_type,
    eventId: row.event_public_id,
    deliveryId: row.id,
    secret: 'masked',
    previousSecret: null,
    timestampSeconds: Math.floor(Number(at) / 1000),
    test: Boolean(row.is_test),
  });
  headers['x-service-signature'] = MASK;
  headers['webhook-signature'] = `v1,${MASK}`;
  return headers;
}

/**
 * Queues one more attempt now, recorded with trigger `manual`, whatever the status (a sent
 * delivery is sent again). It counts against the retry schedule like any attempt.
 */
export async function retryDelivery(deps: Pick<ModuleDeps, 'write'>, accountId: number, id: number, claim: IdempotencyClaim | null = null) {
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    const row = await repo.findDelivery(trx, accountId, id);
    if (!row) throw notFound('webhook_delivery_not_found', id);
    const endpoint = await findEndpoint(trx, accountId, row.endpoint_id);
    if (!endpoint?.enabled) throw new AppError('conflict', 'The endpoint of this delivery is disabled; re-enable it (PATCH enabled=true) first.');
    await repo.requeueDelivery(trx, accountId, id, now);
    await w.wakeDispatcher();
    // Read back in the same transaction: the endpoint (and with it the delivery) may be deleted right after.
    const requeued = await repo.findDelivery(trx, accountId, id);
    if (!requeued) throw notFound('webhook_delivery_not_found', id);
    return toDeliveryView(requeued);
  });
}
