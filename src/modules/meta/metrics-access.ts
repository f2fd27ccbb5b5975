import type { FastifyRequest } from 'fastify';
import { readBearer } from '../../http/auth.ts';
import { safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * /metrics counts over every account, so it is not public: it needs `Authorization: Bearer
 * <CUSTOPS_METRICS_TOKEN>`, and without a configured token it does not exist (404, as an
 * unknown route). Digests are compared, in constant time.
 */
export function metricsAccess(token: string | null): (request: FastifyRequest) => Promise<void> {
  const expected = token === null ? null : sha256Hex(token);
  return async (request) => {
    if (expected === null) throw new AppError('not_found', `No route ${request.method} /metrics.`);
    const presented = readBearer(request.headers.authorization);
    if (presented === null || !safeEqual(sha256Hex(presented), expected)) {
      throw new AppError('unauthorized', 'Send the metrics token as "Authorization: Bearer <token>".', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
  };
}
