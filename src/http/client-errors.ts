import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (malformed head or chunked body,
 * head over the size limit, head or body arriving too slowly) leave in the error model with a
 * request id, like every other error, then the connection closes. Fastify's default answer
 * here is its own body shape, so this replaces it.
 */
export function clientErrorHandler(nextId: () => string, log: (obj: object, msg: string) => void): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const e =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout', 'The request did not arrive in time; the connection is closed.')
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? new AppError('headers_too_large', 'The request headers are over the size limit.')
          : new AppError('bad_request', 'The request is not valid HTTP.');
    const id = nextId();
    log({ request_id: id, code: e.code, parser_error: err.code }, e.message);
    if (!socket.writable) return void socket.destroy();
    const body = JSON.stringify({ error: e.code, message: e.message, request_id: id });
    // end(), not destroy(): a client still sending (an oversized head) would otherwise get a reset that
    // can discard the answer before it reads it. Whatever it still sends is not read; it gets a second.
    socket.end(
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}

/** Errors Fastify raises before routing (a path that is not valid percent-encoding, an over-long segment). */
export function frameworkErrorHandler(body: (request: FastifyRequest, error: AppError) => object) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const e =
      error.code === 'FST_ERR_BAD_URL'
        ? new AppError('bad_request', 'The request path is not valid percent-encoding.')
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('bad_request', 'A path segment is longer than 200 characters.')
          : new AppError('internal_error', 'An unexpected error occurred.');
    request.log.info({ code: e.code, framework_error: error.code }, e.message);
    return reply.code(e.status).header('X-Request-Id', request.id).type('application/json').send(body(request, e));
  };
}
