/**
 * The one closed catalogue of error codes, under their HTTP status: the status belongs to the code,
 * here and nowhere else; test/meta/openapi.test.ts fails when a code is missing from the OpenAPI document.
 */
const CODES_BY_STATUS = {
  400: {
    bad_request: 'The request is not valid HTTP (a malformed head or chunked body, a path that is not valid percent-encoding).',
  },
  401: {
    unauthorized: 'Missing, malformed, unknown or revoked API key.',
  },
  403: {
    forbidden: 'Missing scope, or an X-Service-Signature that does not match the body.',
  },
  404: {
    not_found: 'No such route.',
    org_not_found: 'No such organization in this account.',
    user_not_found: 'No such team user in this account.',
    contact_not_found: 'No such contact in this account.',
    audience_not_found: 'No such marketing audience in this account.',
    deal_not_found: 'No such deal in this account.',
    deal_activity_not_found: 'No such activity on this deal.',
    ticket_not_found: 'No such support ticket in this account.',
    support_log_not_found: 'No such support log on this ticket.',
    webhook_endpoint_not_found: 'No such webhook endpoint in this account.',
    webhook_delivery_not_found: 'No such webhook delivery in this account.',
    api_key_not_found: 'No such API key in this account.',
  },
  405: {
    method_not_allowed: 'The route exists but not with this method.',
  },
  408: {
    request_timeout: 'The request head or body did not arrive in time; the connection is closed.',
  },
  409: {
    org_ambiguous: 'Several organizations match the lookup hints.',
    external_id_conflict: 'The (source_app, external_org_id) pair is already linked to another organization.',
    idempotency_key_in_use: 'A request with this Idempotency-Key is still running.',
    conflict: 'The request conflicts with the current state of the resource.',
  },
  413: {
    payload_too_large: 'The request body is over 1 MiB.',
  },
  415: {
    unsupported_media_type: 'The request body is not application/json.',
  },
  422: {
    validation_error: 'Bad input; `fields` maps each offending field to a reason.',
    org_lookup_required: 'The pair is not mapped yet and the lookup hints (org_name, contact_email) are missing.',
    no_example_available: 'A test send of this event type needs a record the event could describe (a won deal for deal.won, …); the account has none yet.',
    idempotency_key_reused: 'The Idempotency-Key was used before with a different request.',
  },
  429: {
    rate_limited: 'The per-key request rate limit is reached; see Retry-After.',
  },
  431: {
    headers_too_large: 'The request headers are over the size limit.',
  },
  500: {
    internal_error: 'Unexpected server error; the request id identifies it in the logs.',
  },
  503: {
    service_unavailable: 'The database is not reachable, busy beyond its time-out, or full; nothing was written. Retry after `Retry-After` seconds.',
  },
} as const satisfies Record<number, Record<string, string>>;

type CodesByStatus = typeof CODES_BY_STATUS;
export type ErrorCode = { [S in keyof CodesByStatus]: keyof CodesByStatus[S] }[keyof CodesByStatus];

/** Every code with its status and description. */
export const ERROR_CATALOGUE = Object.fromEntries(
  Object.entries(CODES_BY_STATUS).flatMap(([status, codes]) =>
    Object.entries(codes).map(([code, description]) => [code, { status: Number(status), description }]),
  ),
) as Readonly<Record<ErrorCode, { readonly status: number; readonly description: string }>>;

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
