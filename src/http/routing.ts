import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { errorBody } from './errors.ts';
import { routeOf } from './route.ts';
import type { App } from './types.ts';

/**
 * The routing stage of the pipeline (docs/design.md#request-pipeline): a request either reaches a
 * route that takes its method on its path, or is answered here, before any access check, as
 * `404 not_found` (no route has this path) or `405 method_not_allowed` with `Allow` (routes have
 * this path, none with this method).
 *
 * The router (find-my-way) chooses per method, so `PATCH /orgs/resolve` would reach `PATCH /orgs/:id`.
 * Here, as in the API reference, a static path hides a parameterised one: `/orgs/resolve` is the
 * resolve operation's path, and only its methods are allowed there.
 */
interface Pattern {
  segments: string[];
  methods: Set<string>;
}

/** `/a/b/` and `/a/b` are one path (the router ignores a trailing slash); the query is not part of it. */
function pathOf(url: string): string {
  const path = url.split('?')[0];
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function matches(pattern: string[], segments: string[]): boolean {
  return pattern.length === segments.length && pattern.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]));
}

function methodNotAllowed(request: FastifyRequest, allowed: string[]): AppError {
  const allow = allowed.join(', ');
  return new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { headers: { Allow: allow } });
}

function send(request: FastifyRequest, reply: FastifyReply, e: AppError): FastifyReply {
  if (e.headers) reply.headers(e.headers);
  return reply.code(e.status).type('application/json').send(errorBody(request, e));
}

/**
 * Collects every route as it is declared (call before the routes) and answers requests no route
 * takes (the not-found handler tells 404 from 405 with one lookup in the table). Returns the
 * onRequest hook for requests the router sent to a parameterised route although their path is a
 * static route's.
 */
export function registerRouting(app: App): onRequestHookHandler {
  app.decorateRequest('routeCache', null);
  const statics = new Map<string, Set<string>>();
  const parameterised = new Map<string, Pattern>();
  app.addHook('onRoute', (route) => {
    // The console's catch-all (`/*`) serves pages, not API operations: it allows nothing by itself.
    if (route.url.includes('*')) return;
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    if (route.url.includes(':')) {
      const entry = parameterised.get(route.url) ?? { segments: route.url.split('/'), methods: new Set<string>() };
      for (const m of methods) entry.methods.add(m);
      parameterised.set(route.url, entry);
    } else {
      const key = pathOf(route.url);
      const entry = statics.get(key) ?? new Set<string>();
      for (const m of methods) entry.add(m);
      statics.set(key, entry);
    }
  });

  // The methods routes take on a concrete path (HEAD aside), a static route hiding parameterised ones.
  const allowedMethods = (url: string): string[] => {
    const path = pathOf(url);
    const own = statics.get(path);
    if (own) return [...own].sort();
    const segments = path.split('/');
    const allowed = new Set<string>();
    for (const p of parameterised.values()) if (matches(p.segments, segments)) for (const m of p.methods) allowed.add(m);
    return [...allowed].sort();
  };

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(request.url);
    // A route takes this method on this path's pattern, yet the router did not match: a segment is over
    // maxParamLength and the console's catch-all passed the request on. That is a bad path, not a wrong method.
    if (allowed.includes(request.method)) return send(request, reply, new AppError('bad_request', 'A path segment is longer than 200 characters.'));
    if (allowed.length > 0) return send(request, reply, methodNotAllowed(request, allowed));
    return send(request, reply, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });

  // Whether a static route's path has the shape of this parameterised route's, once per route pattern.
  const shadowed = new Map<string, boolean>();
  const mayBeShadowed = (url: string): boolean => {
    let answer = shadowed.get(url);
    if (answer === undefined) {
      const pattern = url.split('/');
      answer = [...statics.keys()].some((path) => matches(pattern, path.split('/')));
      shadowed.set(url, answer);
    }
    return answer;
  };

  return (request, _reply, done) => {
    const url = routeOf(request).url;
    if (url?.includes(':') && mayBeShadowed(url)) {
      const own = statics.get(pathOf(request.url));
      if (own && !own.has(request.method)) throw methodNotAllowed(request, [...own].sort());
    }
    done();
  };
}
