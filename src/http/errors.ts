import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { AppError, ERROR_CATALOGUE, type ErrorCode } from '../lib/errors.ts';
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

/**
 * One error model: every failure leaves as `{error, message, fields?, request_id}` with the
 * status its code has in the catalogue. Unknown errors are logged in full and answered as a
 * bare 500, never with their details.
 */
export function registerErrorHandling(app: App, routePatterns: () => Map<string, Set<string>>): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = error instanceof AppError ? error : fromFastify(error as FastifyError);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code }, appError.message);
    if (appError.headers) reply.headers(appError.headers);
    return reply.code(appError.status).type('application/json').send(errorBody(request, appError));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = new Set<string>();
    for (const [pattern, methods] of routePatterns()) {
      if (new RegExp(pattern).test(path)) for (const m of methods) allowed.add(m);
    }
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      reply.header('Allow', allow);
      const e = new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`);
      return reply.code(e.status).send(errorBody(request, e));
    }
    const e = new AppError('not_found', `No route ${request.method} ${path}.`);
    return reply.code(e.status).send(errorBody(request, e));
  });
}

/** Collects each route's path as a regular expression, so an unmatched request can tell 404 from 405. */
export function collectRoutePatterns(app: App): () => Map<string, Set<string>> {
  const patterns = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const regex =
      '^' +
      route.url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/') +
      '/?$';
    const methods = patterns.get(regex) ?? new Set<string>();
    for (const m of [route.method].flat()) if (m !== 'HEAD') methods.add(m);
    patterns.set(regex, methods);
  });
  return () => patterns;
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export type { FastifyReply };
