import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import { AppError } from '../../lib/errors.ts';

const Health = Type.Object({ status: Type.String() }, { title: 'Health' });

/** Liveness, readiness and the OpenAPI document: no key needed. */
export function registerMetaRoutes(app: App, deps: ModuleDeps): void {
  const hidden = { hide: true };
  app.get('/healthz', { config: { scope: null }, schema: { ...hidden, response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { scope: null }, schema: { ...hidden, response: { 200: Health } } }, async () => {
    try {
      await sql`select 1`.execute(deps.db);
    } catch {
      throw new AppError('service_unavailable', 'The database is not reachable.');
    }
    return { status: 'ready' };
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
