/**
 * `custops/webhooks`: what a receiver needs. Verify a delivery over the raw body bytes with
 * `verifyWebhookSignature` (X-Service-Signature) or `verifyStandardWebhook` (webhook-* headers,
 * with the 300 s timestamp tolerance), then type the parsed body as `WebhookEvent`.
 * docs/webhooks.md has a complete receiver.
 */
export { verifyWebhookSignature, verifyStandardWebhook } from './modules/webhooks/signing.js';
export { EVENT_TYPES } from './modules/events/catalog.js';
