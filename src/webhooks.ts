/**
 * `custops/webhooks`: what a receiver needs. Verify a delivery over the raw body bytes with
 * `verifyWebhookSignature` (X-Service-Signature) or `verifyStandardWebhook` (webhook-* headers,
 * with the 300 s timestamp tolerance), then type the parsed body as `WebhookEvent`.
 * docs/webhooks.md has a complete receiver.
 */
export { verifyWebhookSignature, verifyStandardWebhook, type StandardVerifyOptions } from './modules/webhooks/signing.ts';
export { EVENT_TYPES, type EventType } from './modules/events/catalog.ts';
export type { EventPayload, WebhookEvent } from './modules/events/payloads.ts';
