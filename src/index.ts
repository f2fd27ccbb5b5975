/**
 * The package root: the receiver side of custops webhooks (the same as `custops/webhooks`).
 * The typed API client is `custops/client`.
 */
export * from './webhooks.ts';
