import type { FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];

/**
 * The request's route options (config, schema, url), read once per request: Fastify's
 * `request.routeOptions` builds a new object on every read, and the pipeline's stages read it
 * several times per request. A route's options never change; the one time a request changes route
 * is `reply.callNotFound()` (the console's catch-all does it), which hands it to the not-found
 * handler, whose options have no url: then they are read again (registerRouting declares the
 * property, so every request has the same shape).
 */
export function routeOf(request: FastifyRequest): RouteOptions {
  const cached = request.routeCache;
  if (cached !== null && (cached.url === undefined) === request.is404) return cached;
  const options = request.routeOptions;
  request.routeCache = options;
  return options;
}
