/**
 * The package's public surface for receivers: verify custops webhooks over the raw body bytes.
 * See docs/webhooks.md for a complete receiver.
 */
export { verifyWebhookSignature, verifyStandardWebhook, type StandardVerifyOptions } from './modules/webhooks/signing.ts';
