/**
 * The one closed catalogue of error codes. The HTTP status belongs to the code, here and
 * nowhere else; test/meta/openapi.test.ts fails when a code is missing from the OpenAPI document.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, description: 'The request is not valid HTTP (a malformed head or chunked body, a path that is not valid percent-encoding).' },
  unauthorized: { status: 401, description: 'Missing, malformed, unknown or revoked API key.' },
  forbidden: { status: 403, description: 'Missing scope, or an X-Service-Signature that does not match the body.' },
  not_found: { status: 404, description: 'No such route.' },
  org_not_found: { status: 404, description: 'No such organization in this account.' },
  user_not_found: { status: 404, description: 'No such team user in this account.' },
  contact_not_found: { status: 404, description: 'No such contact in this account.' },
  audience_not_found: { status: 404, description: 'No such marketing audience in this account.' },
  deal_not_found: { status: 404, description: 'No such deal in this account.' },
  deal_activity_not_found: { status: 404, description: 'No such activity on this deal.' },
  ticket_not_found: { status: 404, description: 'No such support ticket in this account.' },
  support_log_not_found: { status: 404, description: 'No such support log on this ticket.' },
  webhook_endpoint_not_found: { status: 404, description: 'No such webhook endpoint in this account.' },
  webhook_delivery_not_found: { status: 404, description: 'No such webhook delivery in this account.' },
  api_key_not_found: { status: 404, description: 'No such API key in this account.' },
  method_not_allowed: { status: 405, description: 'The route exists but not with this method.' },
  org_ambiguous: { status: 409, description: 'Several organizations match the lookup hints.' },
  external_id_conflict: { status: 409, description: 'The (source_app, external_org_id) pair is already linked to another organization.' },
  idempotency_key_in_use: { status: 409, description: 'A request with this Idempotency-Key is still running.' },
  request_timeout: { status: 408, description: 'The request head or body did not arrive in time; the connection is closed.' },
  conflict: { status: 409, description: 'The request conflicts with the current state of the resource.' },
  payload_too_large: { status: 413, description: 'The request body is over 1 MiB.' },
  unsupported_media_type: { status: 415, description: 'The request body is not application/json.' },
  headers_too_large: { status: 431, description: 'The request headers are over the size limit.' },
  validation_error: { status: 422, description: 'Bad input; `fields` maps each offending field to a reason.' },
  org_lookup_required: { status: 422, description: 'The pair is not mapped yet and the lookup hints (org_name, contact_email) are missing.' },
  no_example_available: {
    status: 422,
    description: 'A test send of this event type needs a record the event could describe (a won deal for deal.won, …); the account has none yet.',
  },
  idempotency_key_reused: { status: 422, description: 'The Idempotency-Key was used before with a different request.' },
  rate_limited: { status: 429, description: 'The per-key request rate limit is reached; see Retry-After.' },
  internal_error: { status: 500, description: 'Unexpected server error; the request id identifies it in the logs.' },
  service_unavailable: {
    status: 503,
    description: 'The database is not reachable, busy beyond its time-out, or full; nothing was written. Retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.fields = options.fields;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export function validationError(fields: Record<string, string>, message?: string): AppError {
  const names = Object.keys(fields);
  return new AppError('validation_error', message ?? `Invalid input: ${names.map((n) => `${n} (${fields[n]})`).join(', ')}.`, { fields });
}

export function notFound(code: Extract<ErrorCode, `${string}_not_found`>, id?: number | string): AppError {
  const thing = code.slice(0, -'_not_found'.length).replaceAll('_', ' ');
  return new AppError(code, id === undefined ? `No such ${thing}.` : `No ${thing} with id ${id}.`);
}
