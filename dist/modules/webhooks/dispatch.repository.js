import { sql } from 'kysely';
import * as pgBatch from './dispatch.postgres.js';
import { enabledEndpointsOf } from './endpoints.repository.js';
/** The dispatcher's writes around a delivery: fan-out from the outbox, and the attempt records (claims: claim.repository.ts). */
const INSERT_CHUNK = 500;
/** Turns undispatched events into one delivery per (event, enabled subscribed endpoint). Returns events handled. */
export async function fanOut(db, postgres, now, batch) {
    if (postgres)
        return pgBatch.fanOut(db, now, batch);
    return db.transaction().execute(async (trx) => {
        const events = await trx.selectFrom('events').select(['id', 'account_id', 'event_type', 'created_at']).where('dispatched_at', 'is', null).orderBy('id').limit(batch).execute();
        if (events.length === 0)
            return 0;
        const endpoints = await enabledEndpointsOf(trx, [...new Set(events.map((e) => e.account_id))]);
        const subscribed = endpoints.map((e) => ({ ...e, types: new Set(JSON.parse(e.event_types)) }));
        const rows = events.flatMap((ev) => subscribed
            .filter((ep) => ep.account_id === ev.account_id && ep.types.has(ev.event_type))
            .map((ep) => ({
            account_id: ev.account_id,
            endpoint_id: ep.id,
            event_id: ev.id,
            event_type: ev.event_type,
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            created_at: ev.created_at,
        })));
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
            await trx.insertInto('webhook_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing()).execute();
        }
        await trx.updateTable('events').set({ dispatched_at: now }).where('id', 'in', events.map((e) => e.id)).execute();
        return events.length;
    });
}
/**
 * Writes a batch of attempts and their consequences in one transaction (group commit): each
 * delivery's state, and each endpoint's failure streak (5-day auto-disable) or a 410's disable.
 * A delivery whose endpoint was deleted meanwhile is skipped.
 */
export async function recordAttempts(db, items) {
    if (items.length === 0)
        return;
    await db.transaction().execute(async (trx) => {
        const state = await trx
            .selectFrom('webhook_deliveries as d')
            .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
            .select(['d.id', 'd.attempts', 'w.id as endpoint_id', 'w.failing_since'])
            .where('d.id', 'in', items.map((i) => i.record.deliveryId))
            .execute();
        const attempts = new Map(state.map((d) => [d.id, d.attempts]));
        const health = new Map(state.map((e) => [e.endpoint_id, { failing_since: e.failing_since, change: null }]));
        const rows = [];
        const updates = [];
        for (const { record: a, decide } of items) {
            const previous = attempts.get(a.deliveryId);
            const ep = health.get(a.endpointId);
            if (previous === undefined || !ep)
                continue;
            const outcome = decide(previous + 1, ep.failing_since);
            attempts.set(a.deliveryId, outcome.attemptNumber);
            rows.push({
                account_id: a.accountId, delivery_id: a.deliveryId, attempt_number: outcome.attemptNumber, trigger: a.trigger, status_code: a.statusCode,
                error: a.error, response_body: a.responseBody, duration_ms: a.durationMs, requested_at: a.requestedAt,
            });
            updates.push({ id: a.deliveryId, status: outcome.status, attempts: outcome.attemptNumber, next_attempt_at: outcome.nextAttemptAt, response_status: a.statusCode, error: a.error, duration_ms: a.durationMs, last_attempt_at: a.requestedAt });
            trackHealth(ep, outcome, a.requestedAt);
        }
        if (rows.length === 0)
            return;
        await trx.insertInto('webhook_attempts').values(rows).execute();
        await updateDeliveries(trx, updates);
        for (const [id, ep] of health) {
            if (ep.change)
                await trx.updateTable('webhook_endpoints').set(ep.change).where('id', '=', id).execute();
        }
    });
}
/** One UPDATE for the whole batch (a CASE per column, cast so PostgreSQL knows each type). */
async function updateDeliveries(trx, updates) {
    const column = (name, type) => sql `case ${sql.ref('id')} ${sql.join(updates.map((u) => sql `when ${u.id} then cast(${u[name]} as ${sql.raw(type)})`), sql ` `)} end`;
    await trx
        .updateTable('webhook_deliveries')
        .set({
        status: column('status', 'text'),
        attempts: column('attempts', 'integer'),
        next_attempt_at: column('next_attempt_at', 'bigint'),
        response_status: column('response_status', 'integer'),
        error: column('error', 'text'),
        duration_ms: column('duration_ms', 'integer'),
        last_attempt_at: column('last_attempt_at', 'bigint'),
        next_trigger: null,
        locked_until: null,
    })
        .where('id', 'in', updates.map((u) => u.id))
        .execute();
}
function trackHealth(ep, outcome, at) {
    if (outcome.status === 'sent') {
        if (ep.failing_since !== null)
            ep.change = { ...ep.change, failing_since: null };
        ep.failing_since = null;
        return;
    }
    if (ep.failing_since === null) {
        ep.failing_since = at;
        ep.change = { ...ep.change, failing_since: at };
    }
    if (outcome.disabledReason)
        ep.change = { ...ep.change, enabled: false, disabled_reason: outcome.disabledReason, updated_at: at };
}
