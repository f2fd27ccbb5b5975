import { iso } from '../../lib/clock.js';
import { encryptSecret, generateWebhookSecret } from '../../lib/crypto.js';
import { notFound, validationError } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import { dateRange } from '../../lib/dates.js';
import { isEventType } from '../events/catalog.js';
import { wakeDispatchers } from '../events/outbox.js';
import * as repo from './endpoints.repository.js';
import * as deliveries from './deliveries.repository.js';
import { checkEndpointUrl } from './url-check.js';
import { inTransaction } from '../idempotency/request-scope.js';
/** The old secret keeps signing this long after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export function toEndpointView(r) {
    return {
        id: r.id,
        name: r.name,
        url: r.url,
        event_types: JSON.parse(r.event_types),
        enabled: Boolean(r.enabled),
        disabled_reason: r.disabled_reason,
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
    };
}
function secretKey(config) {
    if (!config.secretKey)
        throw new Error('CUSTOPS_SECRET_KEY is not resolved; webhook secrets cannot be encrypted');
    return config.secretKey;
}
function eventTypes(list) {
    if (!list.every(isEventType))
        throw validationError({ event_types: 'invalid_enum' }, 'event_types holds a type outside the event catalog.');
    return [...new Set(list)];
}
export async function listEndpoints(db, accountId, page) {
    return listPage(page, () => repo.countEndpoints(db, accountId), (limit, offset) => repo.listEndpoints(db, accountId, limit, offset), (rows) => rows.map(toEndpointView));
}
export async function getEndpoint(db, accountId, id) {
    const row = await repo.findEndpoint(db, accountId, id);
    if (!row)
        throw notFound('webhook_endpoint_not_found', id);
    return toEndpointView(row);
}
export async function createEndpoint(deps, accountId, input) {
    const types = eventTypes(input.event_types);
    const url = await checkEndpointUrl(input.url, deps.config.webhookAllowPrivate, deps.resolve);
    const secret = generateWebhookSecret();
    const now = deps.clock.now();
    const enabled = input.enabled ?? true;
    const row = await inTransaction(deps.db, (trx) => repo.insertEndpoint(trx, {
        account_id: accountId,
        name: input.name,
        url,
        event_types: JSON.stringify(types),
        enabled,
        disabled_reason: enabled ? null : 'manual',
        secret_encrypted: encryptSecret(secretKey(deps.config), secret),
        previous_secret_encrypted: null,
        previous_secret_expires_at: null,
        failing_since: null,
        created_at: now,
        updated_at: now,
    }));
    return { ...toEndpointView(row), secret };
}
export async function updateEndpoint(deps, accountId, id, input) {
    // Validation (422) comes before existence (404).
    const changes = { updated_at: deps.clock.now() };
    if (input.name !== undefined)
        changes.name = input.name;
    if (input.event_types !== undefined)
        changes.event_types = JSON.stringify(eventTypes(input.event_types));
    if (input.url !== undefined)
        changes.url = await checkEndpointUrl(input.url, deps.config.webhookAllowPrivate, deps.resolve);
    const row = await inTransaction(deps.db, async (trx) => {
        const current = await repo.findEndpoint(trx, accountId, id, { forUpdate: true });
        if (!current)
            throw notFound('webhook_endpoint_not_found', id);
        if (input.enabled === true && !current.enabled)
            Object.assign(changes, { enabled: true, disabled_reason: null, failing_since: null });
        if (input.enabled === false && current.enabled)
            Object.assign(changes, { enabled: false, disabled_reason: 'manual' });
        const updated = await repo.updateEndpoint(trx, accountId, id, changes);
        if (!updated)
            throw notFound('webhook_endpoint_not_found', id);
        return updated;
    });
    // Re-enabled: deliveries that waited for it are due now.
    if (changes.enabled === true)
        deps.notifyEvents();
    return toEndpointView(row);
}
export async function deleteEndpoint(db, accountId, id) {
    const deleted = await inTransaction(db, (trx) => repo.deleteEndpoint(trx, accountId, id));
    if (!deleted)
        throw notFound('webhook_endpoint_not_found', id);
}
export async function rotateSecret(deps, accountId, id) {
    const secret = generateWebhookSecret();
    const now = deps.clock.now();
    const row = await inTransaction(deps.db, async (trx) => {
        // Locked: two concurrent rotations must not both keep the same old secret as "previous".
        const current = await repo.findEndpoint(trx, accountId, id, { forUpdate: true });
        if (!current)
            throw notFound('webhook_endpoint_not_found', id);
        return repo.updateEndpoint(trx, accountId, id, {
            secret_encrypted: encryptSecret(secretKey(deps.config), secret),
            previous_secret_encrypted: current.secret_encrypted,
            previous_secret_expires_at: now + ROTATION_OVERLAP_MS,
            updated_at: now,
        });
    });
    return { ...toEndpointView(row), secret, previous_secret_expires_at: iso(now + ROTATION_OVERLAP_MS) };
}
export async function recoverEndpoint(deps, accountId, id, body) {
    const { from, to } = dateRange(body, 'since', 'until');
    if (from === null)
        throw validationError({ since: 'required' });
    const now = deps.clock.now();
    const requeued = await inTransaction(deps.db, async (trx) => {
        if (!(await repo.findEndpoint(trx, accountId, id)))
            throw notFound('webhook_endpoint_not_found', id);
        const n = await deliveries.requeueFailed(trx, accountId, id, from, to ?? now, now);
        if (n > 0)
            await wakeDispatchers(trx);
        return n;
    });
    if (requeued > 0)
        deps.notifyEvents();
    return { requeued };
}
