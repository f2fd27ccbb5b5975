import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import { AppError } from '../../lib/errors.ts';
import { readiness, type Dependencies } from './dependencies.ts';

const Health = Type.Object({ status: Type.Literal('ok') }, { title: 'Health', description: 'The process is up and serving requests.' });
const Ready = Type.Object(
  {
    status: Type.Literal('ready'),
    checks: Type.Object({
      database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
      rate_limit: Type.Union([Type.Literal('memory'), Type.Literal('redis'), Type.Literal('local_fallback')], {
        description: 'Where rate-limit counters live now: `redis`, `memory` (no REDIS_URL), or `local_fallback` (Redis unreachable).',
      }),
    }),
  },
  { title: 'Ready', description: 'The database answered a query; the rate-limit backend is reported alongside.' },
);
const tags = ['meta'];

/**
 * Liveness (the process answers), readiness (the database answers a query now; the rate-limit
 * backend is reported alongside) and the OpenAPI document: no key needed.
 */
export function registerMetaRoutes(app: App, _deps: ModuleDeps, dependencies: Dependencies): void {
  app.get(
    '/healthz',
    {
      config: { scope: null },
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        description: 'No key needed. Checks nothing beyond the process itself: use it as a liveness probe.',
        tags,
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { scope: null, errors: ['service_unavailable'] },
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database is reachable',
        description: 'No key needed. 503 `service_unavailable` (with `Retry-After: 1`) while the database does not answer. Use it as a readiness probe.',
        tags,
        response: { 200: Ready },
      },
    },
    async () => {
      const r = await readiness(dependencies);
      if (!r.ready) {
        throw new AppError('service_unavailable', 'The database is not reachable.', {
          extra: { reason: r.reason, checks: r.checks },
          headers: { 'Retry-After': '1' },
        });
      }
      return { status: 'ready' as const, checks: r.checks };
    },
  );

  app.get(
    `${API_PREFIX}/openapi.json`,
    {
      config: { scope: null },
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'The OpenAPI 3.1 description of this API',
        tags: ['meta'],
        description:
          'No key needed. Generated from the same schemas that validate requests; includes the `webhooks` section (event payloads and signature headers).',
        response: { 200: Type.Object({}, { additionalProperties: true, title: 'OpenApiDocument', description: 'The OpenAPI 3.1 document (JSON).' }) },
      },
    },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );
}
