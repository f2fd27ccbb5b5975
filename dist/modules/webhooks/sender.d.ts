import { type LookupFunction } from 'node:net';
/** First bytes of a response body kept in the attempt log. */
export declare const RESPONSE_BODY_LIMIT: number;
export type ErrorClass = 'http_status' | 'redirect' | 'timeout' | 'connect_timeout' | 'connection_refused' | 'dns' | 'tls' | 'blocked_address' | 'network';
export interface AttemptResult {
    statusCode: number;
    error: ErrorClass | null;
    responseBody: string | null;
    durationMs: number;
    /** From a Retry-After header, in milliseconds. */
    retryAfterMs: number | null;
}
export interface SenderOptions {
    allowPrivate: boolean;
    connectTimeoutMs: number;
    timeoutMs: number;
    /** Sockets per origin. */
    connectionsPerOrigin: number;
    /** Extra TLS trust (tests); otherwise Node's store, which NODE_EXTRA_CA_CERTS extends. */
    ca?: string | Buffer | (string | Buffer)[];
    /** DNS for the connection (tests stand in a rebinding resolver). */
    lookup?: LookupFunction;
}
export declare function createSender(options: SenderOptions): {
    send: (url: string, headers: Record<string, string>, body: Buffer) => Promise<AttemptResult>;
    close: () => Promise<void>;
};
export type Sender = ReturnType<typeof createSender>;
