import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import { AppError } from '../../lib/errors.ts';
import { readiness, type Dependencies } from './dependencies.ts';

const Health = Type.Object({ status: Type.String() }, { title: 'Health' });
const Ready = Type.Object(
  {
    status: Type.String(),
    checks: Type.Object({
      database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
      rate_limit: Type.Union([Type.Literal('memory'), Type.Literal('redis'), Type.Literal('local_fallback')]),
    }),
  },
  { title: 'Ready' },
);

/**
 * Liveness (the process answers), readiness (the database answers a query now; the rate-limit
 * backend is reported alongside) and the OpenAPI document: no key needed.
 */
export function registerMetaRoutes(app: App, _deps: ModuleDeps, dependencies: Dependencies): void {
  const hidden = { hide: true };
  app.get('/healthz', { config: { scope: null }, schema: { ...hidden, response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { scope: null }, schema: { ...hidden, response: { 200: Ready } } }, async () => {
    const r = await readiness(dependencies);
    if (!r.ready) {
      throw new AppError('service_unavailable', 'The database is not reachable.', { extra: { reason: r.reason, checks: r.checks }, headers: { 'Retry-After': '1' } });
    }
    return { status: 'ready', checks: r.checks };
  });

  app.get(
    `${API_PREFIX}/openapi.json`,
    {
      config: { scope: null },
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'The OpenAPI 3.1 description of this API',
        tags: ['meta'],
        response: { 200: Type.Object({}, { additionalProperties: true, title: 'OpenApiDocument' }) },
      },
    },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );
}
