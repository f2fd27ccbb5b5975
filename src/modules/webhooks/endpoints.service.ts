import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import { encryptSecret, generateWebhookSecret } from '../../lib/crypto.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import { dateRange } from '../../lib/dates.ts';
import { isEventType } from '../events/catalog.ts';
import * as repo from './endpoints.repository.ts';
import * as deliveries from './deliveries.repository.ts';
import type { CreateEndpointInput, UpdateEndpointInput, WebhookEndpointView } from './webhooks.schemas.ts';
import { checkEndpointUrl, type Resolver } from './url-check.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import type { ModuleDeps } from '../../http/deps.ts';

export type EndpointDeps = Pick<ModuleDeps, 'config' | 'write'> & {
  /** How endpoint host names are resolved for the private-address check (tests pass their own). */
  resolve?: Resolver;
};

/** The old secret keeps signing this long after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function toEndpointView(r: repo.EndpointRow): WebhookEndpointView {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    event_types: JSON.parse(r.event_types) as string[],
    enabled: Boolean(r.enabled),
    disabled_reason: r.disabled_reason,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

function secretKey(config: Config): Buffer {
  if (!config.secretKey) throw new Error('CUSTOPS_SECRET_KEY is not resolved; webhook secrets cannot be encrypted');
  return config.secretKey;
}

function eventTypes(list: string[]): string[] {
  if (!list.every(isEventType)) throw validationError({ event_types: 'invalid_enum' }, 'event_types holds a type outside the event catalog.');
  return [...new Set(list)];
}

export async function listEndpoints(db: Db, accountId: number, page: PageRequest): Promise<ListResult<WebhookEndpointView>> {
  return listPage(
    page,
    () => repo.countEndpoints(db, accountId),
    (limit, offset) => repo.listEndpoints(db, accountId, limit, offset),
    (rows) => rows.map(toEndpointView),
  );
}

export async function getEndpoint(db: Db, accountId: number, id: number): Promise<WebhookEndpointView> {
  const row = await repo.findEndpoint(db, accountId, id);
  if (!row) throw notFound('webhook_endpoint_not_found', id);
  return toEndpointView(row);
}

export async function createEndpoint(deps: EndpointDeps, accountId: number, input: CreateEndpointInput, claim: IdempotencyClaim | null = null) {
  const types = eventTypes(input.event_types);
  const url = await checkEndpointUrl(input.url, deps.config.webhookAllowPrivate, deps.resolve);
  const secret = generateWebhookSecret();
  const enabled = input.enabled ?? true;
  return deps.write(claim, async ({ trx, now }) => {
    const row = await repo.insertEndpoint(trx, {
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
    });
    return { ...toEndpointView(row), secret };
  });
}

export async function updateEndpoint(
  deps: EndpointDeps,
  accountId: number,
  id: number,
  input: UpdateEndpointInput,
  claim: IdempotencyClaim | null = null,
): Promise<WebhookEndpointView> {
  // Validation (422) comes before existence (404).
  const changes: Parameters<typeof repo.updateEndpoint>[3] = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.event_types !== undefined) changes.event_types = JSON.stringify(eventTypes(input.event_types));
  if (input.url !== undefined) changes.url = await checkEndpointUrl(input.url, deps.config.webhookAllowPrivate, deps.resolve);
  return deps.write(claim, async (w) => {
    const { trx } = w;
    changes.updated_at = w.now;
    const current = await repo.findEndpoint(trx, accountId, id, { forUpdate: true });
    if (!current) throw notFound('webhook_endpoint_not_found', id);
    if (input.enabled === true && !current.enabled) Object.assign(changes, { enabled: true, disabled_reason: null, failing_since: null });
    if (input.enabled === false && current.enabled) Object.assign(changes, { enabled: false, disabled_reason: 'manual' });
    const updated = await repo.updateEndpoint(trx, accountId, id, changes);
    if (!updated) throw notFound('webhook_endpoint_not_found', id);
    // Re-enabled: deliveries that waited for it are due now.
    if (changes.enabled === true) await w.wakeDispatcher();
    return toEndpointView(updated);
  });
}

export async function deleteEndpoint(deps: Pick<ModuleDeps, 'write'>, accountId: number, id: number, claim: IdempotencyClaim | null = null): Promise<null> {
  return deps.write(claim, async ({ trx }) => {
    if (!(await repo.deleteEndpoint(trx, accountId, id))) throw notFound('webhook_endpoint_not_found', id);
    return null;
  });
}

export async function rotateSecret(deps: EndpointDeps, accountId: number, id: number, claim: IdempotencyClaim | null = null) {
  const secret = generateWebhookSecret();
  return deps.write(claim, async ({ trx, now }) => {
    // Locked: two concurrent rotations must not both keep the same old secret as "previous".
    const current = await repo.findEndpoint(trx, accountId, id, { forUpdate: true });
    if (!current) throw notFound('webhook_endpoint_not_found', id);
    const row = await repo.updateEndpoint(trx, accountId, id, {
      secret_encrypted: encryptSecret(secretKey(deps.config), secret),
      previous_secret_encrypted: current.secret_encrypted,
      previous_secret_expires_at: now + ROTATION_OVERLAP_MS,
      updated_at: now,
    });
    return { ...toEndpointView(row!), secret, previous_secret_expires_at: iso(now + ROTATION_OVERLAP_MS) };
  });
}

export async function recoverEndpoint(
  deps: Pick<ModuleDeps, 'write'>,
  accountId: number,
  id: number,
  body: { since: string; until?: string },
  claim: IdempotencyClaim | null = null,
) {
  const { from, to } = dateRange(body, 'since', 'until');
  if (from === null) throw validationError({ since: 'required' });
  return deps.write(claim, async (w) => {
    if (!(await repo.findEndpoint(w.trx, accountId, id))) throw notFound('webhook_endpoint_not_found', id);
    const requeued = await deliveries.requeueFailed(w.trx, accountId, id, from, to ?? w.now, w.now);
    if (requeued > 0) await w.wakeDispatcher();
    return { requeued };
  });
}
