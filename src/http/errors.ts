import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { databaseUnavailable, type UnavailableReason } from '../db/faults.ts';
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

/**
 * One error model: every failure leaves as `{error, message, fields?, request_id}` with the
 * status its code has in the catalogue. Unknown errors are logged in full and answered as a
 * bare 500, never with their details.
 */
/** The methods allowed on a concrete path; a static route (`/orgs/resolve`) hides a parameterised one (`/orgs/:id`). */
function allowedMethods(routes: RoutePatterns, path: string): string[] {
  const matching = [...routes.values()].filter((r) => r.regex.test(path));
  const chosen = matching.some((r) => r.static) ? matching.filter((r) => r.static) : matching;
  return [...new Set(chosen.flatMap((r) => [...r.methods]))].sort();
}

function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, allowed: string[]) {
  const allow = allowed.join(', ');
  reply.header('Allow', allow);
  const e = new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`);
  return reply.code(e.status).send(errorBody(request, e));
}

/** A driver error meaning the database cannot serve now: 503 with Retry-After, the client may retry. */
function unavailable(reason: UnavailableReason): AppError {
  const message =
    reason === 'database_busy' ? 'The database is busy; retry shortly.'
    : reason === 'database_full' ? 'The database has no space left; nothing was written.'
    : reason === 'database_timeout' ? 'The database did not answer in time; retry shortly.'
    : 'The database is not reachable; retry shortly.';
  return new AppError('service_unavailable', message, { headers: { 'Retry-After': '1' }, extra: { reason } });
}

export function registerErrorHandling(
  app: App,
  routePatterns: () => RoutePatterns,
  onUnavailable: (err: unknown, reason: UnavailableReason) => void = () => {},
): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const reason = error instanceof AppError ? null : databaseUnavailable(error);
    if (reason) {
      onUnavailable(error, reason);
      const e = unavailable(reason);
      request.log.warn({ code: e.code, reason, err_message: (error as Error).message }, e.message);
      return reply.code(e.status).headers(e.headers!).type('application/json').send(errorBody(request, e));
    }
    // `GET /orgs/resolve` reaches `/orgs/:id` and fails its integer check: the path names the static route, so 405.
    const params = (request.params ?? {}) as Record<string, unknown>;
    const badParam =
      (error as FastifyError).validationContext === 'params' ||
      (error instanceof AppError && error.code === 'validation_error' && Object.keys(error.fields ?? {}).some((f) => f in params));
    if (badParam) {
      const allowed = allowedMethods(routePatterns(), request.url.split('?')[0]);
      const own = request.routeOptions.url ? routePatterns().get(request.routeOptions.url) : undefined;
      if (own && !own.static && allowed.length && !allowed.includes(request.method)) return methodNotAllowed(request, reply, allowed);
    }
    const appError = error instanceof AppError ? error : fromFastify(error as FastifyError);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code }, appError.message);
    if (appError.headers) reply.headers(appError.headers);
    return reply.code(appError.status).type('application/json').send(errorBody(request, appError));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(routePatterns(), path);
    // A route takes this method on this path's pattern, yet the router did not match: a segment is over
    // maxParamLength and a catch-all route passed the request on. That is a bad path, not a wrong method.
    if (allowed.includes(request.method)) {
      const e = new AppError('bad_request', 'A path segment is longer than 200 characters.');
      return reply.code(e.status).send(errorBody(request, e));
    }
    if (allowed.length > 0) return methodNotAllowed(request, reply, allowed);
    const e = new AppError('not_found', `No route ${request.method} ${path}.`);
    return reply.code(e.status).send(errorBody(request, e));
  });
}

/** Each route path (by its pattern) with its methods and a regular expression for concrete paths. */
export type RoutePatterns = Map<string, { regex: RegExp; static: boolean; methods: Set<string> }>;

/** Collects each route's path as a regular expression, so an unmatched request can tell 404 from 405. */
export function collectRoutePatterns(app: App): () => RoutePatterns {
  const patterns: RoutePatterns = new Map();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const segments = route.url.split('/');
    const regex = new RegExp(
      '^' + segments.map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/') + '/?$',
    );
    const entry = patterns.get(route.url) ?? { regex, static: !segments.some((s) => s.startsWith(':')), methods: new Set<string>() };
    for (const m of [route.method].flat()) if (m !== 'HEAD') entry.methods.add(m);
    patterns.set(route.url, entry);
  });
  return () => patterns;
}

