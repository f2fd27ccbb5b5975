import type { Insertable } from 'kysely';
import type { WebhookEndpointsTable } from '../../../src/db/schema.ts';
import { encryptSecret, generateWebhookSecret } from '../../../src/lib/crypto.ts';

/**
 * A webhook endpoint's row as the API stores one (enabled, its signing secret sealed with the
 * secret key), for tests and benches that set up data without the API.
 */
export function endpointRow(o: {
  accountId: number;
  name: string;
  url: string;
  eventTypes: readonly string[];
  secretKey: Buffer;
  /** The signing secret (default: a fresh one). */
  secret?: string;
  now?: number;
  createdAt?: number;
}): Insertable<WebhookEndpointsTable> {
  const now = o.now ?? Date.now();
  return {
    account_id: o.accountId,
    name: o.name,
    url: o.url,
    event_types: JSON.stringify(o.eventTypes),
    enabled: true,
    disabled_reason: null,
    secret_encrypted: encryptSecret(o.secretKey, o.secret ?? generateWebhookSecret()),
    previous_secret_encrypted: null,
    previous_secret_expires_at: null,
    failing_since: null,
    created_at: o.createdAt ?? now,
    updated_at: now,
  };
}
