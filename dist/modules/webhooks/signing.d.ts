export declare function serviceSignature(secret: string, body: string | Uint8Array): string;
export declare function standardSignature(secret: string, msgId: string, timestampSeconds: number, body: string | Uint8Array): string;
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
export declare const USER_AGENT = "service/1.0";
/** Every header of a delivery request, signed over the exact body bytes sent. */
export declare function deliveryHeaders(input: SigningInput): Record<string, string>;
type HeaderBag = Headers | Record<string, string | string[] | undefined>;
/**
 * Receiver side: true when `X-Service-Signature` (or, during a rotation, `X-Service-Signature-Previous`)
 * is the HMAC of the raw body bytes under `secret`. Pass the bytes as received, never re-serialized JSON.
 * Comparison is constant-time.
 */
export declare function verifyWebhookSignature(rawBody: string | Uint8Array, headers: HeaderBag, secret: string): boolean;
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
export declare function verifyStandardWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string, options?: StandardVerifyOptions): boolean;
export {};
