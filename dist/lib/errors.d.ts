/**
 * The one closed catalogue of error codes. The HTTP status belongs to the code, here and
 * nowhere else; test/errors.test.ts fails when a code is missing from the OpenAPI document.
 */
export declare const ERROR_CATALOGUE: {
    readonly bad_request: {
        readonly status: 400;
        readonly description: 'The request is not valid HTTP (a malformed head or chunked body, a path that is not valid percent-encoding).';
    };
    readonly unauthorized: {
        readonly status: 401;
        readonly description: 'Missing, malformed, unknown or revoked API key.';
    };
    readonly forbidden: {
        readonly status: 403;
        readonly description: 'Missing scope, or an X-Service-Signature that does not match the body.';
    };
    readonly not_found: {
        readonly status: 404;
        readonly description: 'No such route.';
    };
    readonly org_not_found: {
        readonly status: 404;
        readonly description: 'No such organization in this account.';
    };
    readonly user_not_found: {
        readonly status: 404;
        readonly description: 'No such team user in this account.';
    };
    readonly contact_not_found: {
        readonly status: 404;
        readonly description: 'No such contact in this account.';
    };
    readonly audience_not_found: {
        readonly status: 404;
        readonly description: 'No such marketing audience in this account.';
    };
    readonly deal_not_found: {
        readonly status: 404;
        readonly description: 'No such deal in this account.';
    };
    readonly deal_activity_not_found: {
        readonly status: 404;
        readonly description: 'No such activity on this deal.';
    };
    readonly ticket_not_found: {
        readonly status: 404;
        readonly description: 'No such support ticket in this account.';
    };
    readonly support_log_not_found: {
        readonly status: 404;
        readonly description: 'No such support log on this ticket.';
    };
    readonly webhook_endpoint_not_found: {
        readonly status: 404;
        readonly description: 'No such webhook endpoint in this account.';
    };
    readonly webhook_delivery_not_found: {
        readonly status: 404;
        readonly description: 'No such webhook delivery in this account.';
    };
    readonly api_key_not_found: {
        readonly status: 404;
        readonly description: 'No such API key in this account.';
    };
    readonly method_not_allowed: {
        readonly status: 405;
        readonly description: 'The route exists but not with this method.';
    };
    readonly org_ambiguous: {
        readonly status: 409;
        readonly description: 'Several organizations match the lookup hints.';
    };
    readonly external_id_conflict: {
        readonly status: 409;
        readonly description: 'The (source_app, external_org_id) pair is already linked to another organization.';
    };
    readonly idempotency_key_in_use: {
        readonly status: 409;
        readonly description: 'A request with this Idempotency-Key is still running.';
    };
    readonly request_timeout: {
        readonly status: 408;
        readonly description: 'The request head or body did not arrive in time; the connection is closed.';
    };
    readonly conflict: {
        readonly status: 409;
        readonly description: 'The request conflicts with the current state of the resource.';
    };
    readonly payload_too_large: {
        readonly status: 413;
        readonly description: 'The request body is over 1 MiB.';
    };
    readonly unsupported_media_type: {
        readonly status: 415;
        readonly description: 'The request body is not application/json.';
    };
    readonly headers_too_large: {
        readonly status: 431;
        readonly description: 'The request headers are over the size limit.';
    };
    readonly validation_error: {
        readonly status: 422;
        readonly description: 'Bad input; `fields` maps each offending field to a reason.';
    };
    readonly org_lookup_required: {
        readonly status: 422;
        readonly description: 'The pair is not mapped yet and the lookup hints (org_name, contact_email) are missing.';
    };
    readonly no_example_available: {
        readonly status: 422;
        readonly description: 'A test send of this event type needs a record the event could describe (a won deal for deal.won, …); the account has none yet.';
    };
    readonly idempotency_key_reused: {
        readonly status: 422;
        readonly description: 'The Idempotency-Key was used before with a different request.';
    };
    readonly rate_limited: {
        readonly status: 429;
        readonly description: 'The per-key request rate limit is reached; see Retry-After.';
    };
    readonly internal_error: {
        readonly status: 500;
        readonly description: 'Unexpected server error; the request id identifies it in the logs.';
    };
    readonly service_unavailable: {
        readonly status: 503;
        readonly description: 'The database is not reachable, busy beyond its time-out, or full; nothing was written. Retry after `Retry-After` seconds.';
    };
};
export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export declare class AppError extends Error {
    readonly code: ErrorCode;
    readonly status: number;
    readonly fields: Record<string, string> | undefined;
    readonly extra: Record<string, unknown> | undefined;
    readonly headers: Record<string, string> | undefined;
    constructor(code: ErrorCode, message: string, options?: {
        fields?: Record<string, string>;
        extra?: Record<string, unknown>;
        headers?: Record<string, string>;
    });
}
export declare function validationError(fields: Record<string, string>, message?: string): AppError;
export declare function notFound(code: Extract<ErrorCode, `${string}_not_found`>, id?: number | string): AppError;
