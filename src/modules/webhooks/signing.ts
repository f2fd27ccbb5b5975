import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.ts';

/**
 * Webhook signatures, both schemes (docs/design.md#webhooks):
 * - X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole
 *   `whsec_…` string's UTF-8 bytes (as a receiver reading the specification would do);
 * - Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the
 *   base64-decoded part after `whsec_`, so stock libraries verify it.
 * This file is also the receiver side exported by the package: it imports nothing of the service.
 */

// Building a key object per HMAC is a third of the signing cost; a sender signs with few secrets.
const keys = new Map<string, KeyObject>();
function keyOf(id: string, make: () => Buffer): KeyObject {
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    key = createSecretKey(make());
    keys.set(id, key);
  }
  return key;
}

export function serviceSignature(secret: string, body: string | Uint8Array): string {
  return createHmac(
    'sha256',
    keyOf('s:' + secret, () => Buffer.from(secret, 'utf8')),
  )
    .update(body)
    .digest('hex');
}

function standardKey(secret: string): KeyObject {
  return keyOf('w:' + secret, () => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
}

export function standardSignature(secret: string, msgId: string, timestampSeconds: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', standardKey(secret));
  mac.update(`${msgId}.${timestampSeconds}.`);
  mac.update(body);
  return 'v1,' + mac.digest('base64');
}

export interface SigningInput {
  body: string;
  eventType: string;
  eventId: string;
  deliveryId: number;
  secret: string;
  /** The secret before the last rotation, while it still signs (24 hours). */
  previousSecret: string | null;
  timestampSeconds: number;
  /** A test send: adds `X-Service-Test: 1`. */
  test?: boolean;
}

export const USER_AGENT = 'service/1.0';

/** Every header of a delivery request, signed over the exact body bytes sent. */
export function deliveryHeaders(input: SigningInput): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': serviceSignature(input.secret, input.body),
    'x-service-event': input.eventType,
    'x-service-event-id': input.eventId,
    'x-service-delivery': String(input.deliveryId),
    'webhook-id': input.eventId,
    'webhook-timestamp': String(input.timestampSeconds),
  };
  const signatures = [standardSignature(input.secret, input.eventId, input.timestampSeconds, input.body)];
  if (input.previousSecret) {
    headers['x-service-signature-previous'] = serviceSignature(input.previousSecret, input.body);
    signatures.push(standardSignature(input.previousSecret, input.eventId, input.timestampSeconds, input.body));
  }
  headers['webhook-signature'] = signatures.join(' ');
  if (input.test) headers['x-service-test'] = '1';
  return headers;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Receiver side: true when `X-Service-Signature` (or, during a rotation, `X-Service-Signature-Previous`)
 * is the HMAC of the raw body bytes under `secret`. Pass the bytes as received, never re-serialized JSON.
 * Comparison is constant-time.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, headers: HeaderBag, secret: string): boolean {
  const expected = serviceSignature(secret, rawBody);
  let ok = false;
  for (const name of ['x-service-signature', 'x-service-signature-previous']) {
    const got = header(headers, name)?.trim().toLowerCase();
    // Not short-circuited, so the time taken does not say which header matched.
    if (got !== undefined && safeEqual(got, expected)) ok = true;
  }
  return ok;
}

export interface StandardVerifyOptions {
  /** Seconds a webhook-timestamp may differ from now; 300 by default. */
  toleranceSeconds?: number;
  /** Epoch milliseconds to treat as now (tests). */
  now?: number;
}

/**
 * Receiver side, Standard Webhooks: checks webhook-timestamp against the tolerance and that one of
 * the space-separated `v1,` signatures in webhook-signature matches. True when the request is genuine.
 */
export function verifyStandardWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string, options: StandardVerifyOptions = {}): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = standardSignature(secret, id, Number(timestamp), rawBody);
  let ok = false;
  for (const candidate of signatures.split(' ')) {
    if (candidate && safeEqual(candidate, expected)) ok = true;
  }
  return ok;
}
