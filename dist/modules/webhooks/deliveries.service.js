import { iso } from '../../lib/clock.js';
import { dateRange } from '../../lib/dates.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import { DEFAULT_PER_PAGE } from '../../lib/pagination.js';
import { wakeDispatchers } from '../events/outbox.js';
import * as repo from './deliveries.repository.js';
import { deliveryHeaders } from './signing.js';
import { findEndpoint } from './endpoints.repository.js';
import { inTransaction } from '../idempotency/request-scope.js';
export function toDeliveryView(r) {
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
function toAttemptView(a, test) {
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
export async function listDeliveries(db, accountId, q) {
    const { from, to } = dateRange(q, 'from', 'to');
    if (q.endpoint_id !== undefined && !(await findEndpoint(db, accountId, q.endpoint_id)))
        throw notFound('webhook_endpoint_not_found', q.endpoint_id);
    const perPage = Math.min(q.per_page ?? DEFAULT_PER_PAGE, q.limit ?? Number.MAX_SAFE_INTEGER);
    const page = { page: q.page ?? 1, per_page: q.per_page === undefined && q.limit !== undefined ? q.limit : perPage };
    const filter = { eventType: q.event_type, status: q.status, endpointId: q.endpoint_id, from, to };
    const dir = q.direction === 'asc' ? 'asc' : 'desc';
    return listPage(page, () => repo.countDeliveries(db, accountId, filter), (limit, offset) => repo.listDeliveries(db, accountId, filter, dir, limit, offset), (rows) => rows.map(toDeliveryView));
}
export async function getDelivery(db, accountId, id) {
    const row = await repo.findDelivery(db, accountId, id);
    if (!row)
        throw notFound('webhook_delivery_not_found', id);
    const attempts = await repo.attemptsOf(db, accountId, id);
    const payload = await repo.payloadOf(db, accountId, row.event_id);
    const test = Boolean(row.is_test);
    return {
        ...toDeliveryView(row),
        attempts_log: attempts.map((a) => toAttemptView(a, test)),
        payload: JSON.parse(payload),
        request_headers: sentHeaders(row, payload, row.last_attempt_at ?? row.next_attempt_at ?? row.created_at),
    };
}
const MASK = '••••••••';
/** The headers an attempt carried, rebuilt (they are not stored) with every signature masked. */
function sentHeaders(row, payload, at) {
    const headers = deliveryHeaders({
        body: payload, eventType: row.event_type, eventId: row.event_public_id, deliveryId: row.id, secret: 'masked', previousSecret: null,
        timestampSeconds: Math.floor(Number(at) / 1000), test: Boolean(row.is_test),
    });
    headers['x-service-signature'] = MASK;
    headers['webhook-signature'] = `v1,${MASK}`;
    return headers;
}
/**
 * Queues one more attempt now, recorded with trigger `manual`, whatever the status (a sent
 * delivery is sent again). It counts against the retry schedule like any attempt.
 */
export async function retryDelivery(deps, accountId, id) {
    const now = deps.clock.now();
    const requeued = await inTransaction(deps.db, async (trx) => {
        const row = await repo.findDelivery(trx, accountId, id);
        if (!row)
            throw notFound('webhook_delivery_not_found', id);
        const endpoint = await findEndpoint(trx, accountId, row.endpoint_id);
        if (!endpoint?.enabled)
            throw new AppError('conflict', 'The endpoint of this delivery is disabled; re-enable it (PATCH enabled=true) first.');
        await repo.requeueDelivery(trx, accountId, id, now);
        await wakeDispatchers(trx);
        // Read back in the same transaction: the endpoint (and with it the delivery) may be deleted right after.
        return repo.findDelivery(trx, accountId, id);
    });
    deps.notifyEvents();
    if (!requeued)
        throw notFound('webhook_delivery_not_found', id);
    return toDeliveryView(requeued);
}
