import type { FastifyError, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { databaseUnavailable, type UnavailableReason } from '../db/errors.ts';
import { AppError, type ErrorCode } from '../lib/errors.ts';
import { fieldsFromAjv } from './validation.ts';
import type { App } from './types.ts';

interface ErrorBody {
  error: ErrorCode;
  message: string;
  fields?: Record<string, string>;
  request_id: string;
  [extra: string]: unknown;
}

export function errorBody(request: FastifyRequest, error: AppError): ErrorBody {
  const body: ErrorBody = { error: error.code, message: error.message, request_id: String(request.id) };
  if (error.fields) body.fields = error.fields;
  if (error.extra) Object.assign(body, error.extra);
  return body;
}

/** Framework errors (parsing, limits) → the catalogue. */
function fromFastify(error: FastifyError): AppError {
  if (error.validation) {
    return new AppError('validation_error', 'The request is invalid; see fields.', {
      fields: fieldsFromAjv(error.validation as ErrorObject[]),
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is over the 1 MiB limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('validation_error', 'The request body is empty or malformed.', { fields: { body: 'invalid_json' } });
  }
  if (error.statusCode === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (error.statusCode === 404) return new AppError('not_found', 'No such route.');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('validation_error', error.message, { fields: { body: 'invalid' } });
  }
  return new AppError('internal_error', 'An unexpected error occurred.');
}

/** A driver error meaning the database cannot serve now: 503 with Retry-After, the client may retry. */
function unavailable(reason: UnavailableReason): AppError {
  const message =
    reason === 'database_busy'
      ? 'The database is busy; retry shortly.'
      : reason === 'database_full'
        ? 'The database has no space left; nothing was written.'
        : reason === 'database_timeout'
          ? 'The database did not answer in time; retry shortly.'
          : 'The database is not reachable; retry shortly.';
  return new AppError('service_unavailable', message, { headers: { 'Retry-After': '1' }, extra: { reason } });
}

/**
 * One error model: every failure leaves as `{error, message, fields?, request_id}` with the
 * status its code has in the catalogue. Unknown errors are logged in full and answered as a
 * bare 500, never with their details.
 */
export function registerErrorHandling(app: App, onUnavailable: (err: unknown, reason: UnavailableReason) => void = () => {}): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const reason = error instanceof AppError ? null : databaseUnavailable(error);
    if (reason) {
      onUnavailable(error, reason);
      const e = unavailable(reason);
      request.log.warn({ code: e.code, reason, err_message: (error as Error).message }, e.message);
      return reply.code(e.status).headers(e.headers!).type('application/json').send(errorBody(request, e));
    }
    const appError = error instanceof AppError ? error : fromFastify(error as FastifyError);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code }, appError.message);
    if (appError.headers) reply.headers(appError.headers);
    return reply.code(appError.status).type('application/json').send(errorBody(request, appError));
  });
}
