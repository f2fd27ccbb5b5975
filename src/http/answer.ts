import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredResponse } from '../lib/write.ts';
import { routeOf } from './route.ts';

/** The one success status a route declares in its response schema (200 when it declares none). */
function successStatus(request: FastifyRequest): number {
  const declared = Object.keys((routeOf(request).schema?.response as Record<string, unknown> | undefined) ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return declared[0] ?? 200;
}

/**
 * The response a route gives `result`: its declared success status; for a 201 a Location made
 * from the request's own path (so it carries the route prefix) and the new id; the body as the
 * route's response schema serializes it. Idempotency claims store exactly this (lib/write.ts).
 */
export function successResponse(request: FastifyRequest, reply: FastifyReply, result: unknown): StoredResponse {
  const status = successStatus(request);
  reply.code(status);
  const body = status === 204 ? '' : (reply.serialize(result) as string);
  const location = status === 201 ? `${request.url.split('?')[0].replace(/\/$/, '')}/${(result as { id: number }).id}` : null;
  return { status, body, location };
}

/**
 * Sends a write's result. With an Idempotency-Key whose response the write stored, the stored
 * bytes are sent, so the first answer and every replay are identical.
 */
export function answer(request: FastifyRequest, reply: FastifyReply, result: unknown): FastifyReply {
  const response = request.idempotency?.stored ?? successResponse(request, reply, result);
  reply.code(response.status);
  if (response.location) reply.header('Location', response.location);
  if (response.status === 204) return reply.send();
  return reply.type('application/json; charset=utf-8').send(response.body);
}
