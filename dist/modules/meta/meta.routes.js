import { sql } from 'kysely';
import { Type } from 'typebox';
import { API_PREFIX } from '../../http/openapi.js';
import { AppError } from '../../lib/errors.js';
const Health = Type.Object({ status: Type.Literal('ok') }, { title: 'Health', description: 'The process is up and serving requests.' });
const Ready = Type.Object({ status: Type.Literal('ready') }, { title: 'Readiness', description: 'The database answered a query.' });
const tags = ['meta'];
/** Liveness, readiness and the OpenAPI document: no key needed. */
export function registerMetaRoutes(app, deps) {
    app.get('/healthz', {
        config: { scope: null },
        schema: {
            operationId: 'getHealth',
            summary: 'Liveness: the process answers',
            description: 'No key needed. Checks nothing beyond the process itself: use it as a liveness probe.',
            tags,
            response: { 200: Health },
        },
    }, async () => ({ status: 'ok' }));
    app.get('/readyz', {
        config: { scope: null, errors: ['service_unavailable'] },
        schema: {
            operationId: 'getReadiness',
            summary: 'Readiness: the database is reachable',
            description: 'No key needed. Runs `select 1`; 503 `service_unavailable` while the database does not answer. Use it as a readiness probe.',
            tags,
            response: { 200: Ready },
        },
    }, async () => {
        try {
            await sql `select 1`.execute(deps.db);
        }
        catch {
            throw new AppError('service_unavailable', 'The database is not reachable.');
        }
        return { status: 'ready' };
    });
    app.get(`${API_PREFIX}/openapi.json`, {
        config: { scope: null },
        schema: {
            operationId: 'getOpenApiDocument',
            summary: 'The OpenAPI 3.1 description of this API',
            tags: ['meta'],
            description: 'No key needed. Generated from the same schemas that validate requests; includes the `webhooks` section (event payloads and signature headers).',
            response: { 200: Type.Object({}, { additionalProperties: true, title: 'OpenApiDocument', description: 'The OpenAPI 3.1 document (JSON).' }) },
        },
    }, async () => app.swagger());
}
