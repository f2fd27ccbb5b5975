import swagger from '@fastify/swagger';
import { Type } from 'typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '../lib/errors.ts';
import { describeRequirement, type ScopeRequirement } from '../modules/api-keys/scopes.ts';
import type { App } from './types.ts';
import { webhookPayloadComponents, webhooksSection } from './openapi-webhooks.ts';
import { registerDocsPage } from './docs-page.ts';

export const API_PREFIX = '/api/v1';

const COMMON_ERRORS: ErrorCode[] = ['unauthorized', 'forbidden', 'validation_error', 'rate_limited', 'internal_error'];

export const TAGS = [
  { name: 'orgs', description: 'Customer organizations and external tenant links.' },
  { name: 'users', description: 'Account team members.' },
  { name: 'contacts', description: 'Contacts and marketing audiences.' },
  { name: 'deals', description: 'Deals and their timeline activities.' },
  { name: 'support', description: 'Support tickets and their logs.' },
  { name: 'activity', description: 'The unified activity feed.' },
  { name: 'analytics', description: 'Server-side aggregates: facts and calculations only.' },
  {
    name: 'webhooks',
    description: 'Webhook endpoints and the delivery log. The events themselves, their payloads and signature headers are under `webhooks` (OpenAPI 3.1).',
  },
  { name: 'extensions', description: 'Full-access routes (scope `*` unless stated) that create records and move their state.' },
  {
    name: 'console',
    description:
      'Console sign-in, the session, API keys and team management: console sessions only (the `custops_session` cookie); API keys are refused with 403.',
  },
  { name: 'meta', description: 'Liveness, readiness, Prometheus metrics and this API description: no API key needed.' },
];

/** Groups error codes by status for the OpenAPI responses. */
function errorResponses(codes: ErrorCode[]): Record<string, object> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, object> = {};
  for (const [status, list] of byStatus) {
    out[String(status)] = {
      ...Type.Ref('ErrorResponse'),
      description: list.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].description}`).join(' '),
    };
  }
  return out;
}

/** A 2xx response without its own description gets one from its schema, so none reads "Default Response". */
function describeSuccess(schema: Record<string, unknown> & { response?: Record<string, unknown> }): void {
  for (const [status, raw] of Object.entries(schema.response ?? {})) {
    if (!status.startsWith('2') || !raw || typeof raw !== 'object') continue;
    const response = raw as Record<string, unknown>;
    if (response.description) continue;
    const title = typeof response.title === 'string' ? response.title : typeof response.$ref === 'string' ? response.$ref : null;
    const description = title?.endsWith('List')
      ? `One page of ${title.slice(0, -'List'.length)} records, with \`pagination\`.`
      : title
        ? `The ${title}.`
        : String(schema.summary ?? 'Success.');
    schema.response![status] = { ...response, description };
  }
}

// Fastify calls onRoute again for the HEAD route it adds beside each GET, with the same schema object.
const decorated = new WeakSet<object>();

/**
 * Adds what every route shares to its schema before Fastify compiles it: the bearer security
 * requirement, the required scope (stated once in the description, and as `x-required-scopes`),
 * the error responses and a description of each success response, so the document can never
 * forget them.
 */
export function decorateRouteSchemas(app: App): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema || decorated.has(route.schema) || (route.schema as { hide?: boolean }).hide) return;
    const config = (route.config ?? {}) as { scope?: ScopeRequirement | null; errors?: ErrorCode[]; session?: 'sign-in' | 'only'; role?: 'admin' };
    if (!route.url.startsWith(API_PREFIX) && config.scope !== null) return;
    decorated.add(route.schema);
    const schema = route.schema as Record<string, unknown> & { response?: Record<string, unknown> };
    describeSuccess(schema);
    if (config.scope === undefined) throw new Error(`${String(route.method)} ${route.url} declares no scope (use null for a public route)`);
    if (config.session) {
      schema.security = config.session === 'only' ? [{ sessionCookie: [] }] : [];
      const line =
        'Console sessions only: a request with an API key is refused (403 `forbidden`).' +
        (config.session === 'only' ? ' Writes need `X-CSRF-Token`.' : '') +
        (config.role === 'admin' ? ' Needs the owner or admin role.' : '');
      schema.description = schema.description ? `${schema.description}\n\n${line}` : line;
      const codes = [...new Set([...COMMON_ERRORS, ...(config.errors ?? [])])];
      schema.response = { ...errorResponses(codes), ...(schema.response ?? {}) };
      return;
    }
    if (config.scope === null) {
      schema.security ??= [];
      const errors = (config.errors ?? []).length ? errorResponses(config.errors!) : {};
      schema.response = {
        '4xx': { ...Type.Ref('ErrorResponse'), description: 'Client error, for example `not_found`.' },
        ...errors,
        ...(schema.response ?? {}),
      };
      return;
    }
    const scope = config.scope;
    schema.security = [{ bearerAuth: [] }, { sessionCookie: [] }];
    schema['x-required-scopes'] = typeof scope === 'string' ? [scope] : [...scope];
    const line = describeRequirement(scope) + (config.role === 'admin' ? ' Console sessions need the owner or admin role.' : '');
    schema.description = schema.description ? `${schema.description}\n\n${line}` : line;
    const codes = [...new Set([...COMMON_ERRORS, ...(config.errors ?? [])])];
    schema.response = { ...errorResponses(codes), ...(schema.response ?? {}) };
  });
}

export async function registerOpenApi(app: App, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'custops API',
        summary: 'Sales and support tracking API v1 with signed webhooks.',
        version,
        description:
          'Customer-operations API v1: organizations, users, contacts, deals, support tickets, the unified activity feed, ' +
          'analytics and signed webhooks. Every request carries `Authorization: Bearer <API key>`; writes may also carry ' +
          '`X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with the key secret). Lists answer ' +
          '`{data, pagination}`; errors answer `{error, message, fields?, request_id}`. Writes accept `Idempotency-Key`. ' +
          'Any route may also answer `not_found` (404, unknown route), `method_not_allowed` (405), `payload_too_large` ' +
          '(413, body over 1 MiB), `unsupported_media_type` (415, body not JSON), `bad_request` (400, not valid HTTP or a path ' +
          'that is not valid percent-encoding), `request_timeout` (408, head or body too slow), `headers_too_large` (431) and ' +
          '`service_unavailable` (503, the database unreachable, busy or full; nothing written; honour `Retry-After`). ' +
          'Request bodies are strict: a field the operation does not define is 422 `unknown_field`, and JSON types are ' +
          'not coerced; query parameters the operation does not define are ignored. Integers in paths and queries are ' +
          'decimal digits; text may not contain U+0000 (422 `invalid_character`); a body nested deeper than 32 levels is ' +
          '422 `too_deep` on the field holding it.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: TAGS,
      // Filled in by transformObject below (the plugin does not copy a webhooks section through).
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key secret (`cok_…`) created in the console or with `custops key create`.' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'custops_session',
            description:
              "The web console's session (from `POST /api/v1/session`). It acts with the signed-in user's role instead of key scopes; " +
              'cookie-authenticated writes (POST, PUT, PATCH, DELETE) must send `X-CSRF-Token` (from the session), else 403 `forbidden`. ' +
              'A request with `Authorization` is judged by its key alone and its cookies are ignored.',
          },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'The CUSTOPS_METRICS_TOKEN of the server (GET /metrics only).' },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    },
    // A route whose body may be left out (`x-body-optional` in its schema) gets `requestBody.required: false`.
    transformObject: (documentObject) => {
      const doc = (
        documentObject as { openapiObject: { paths?: Record<string, Record<string, { 'x-body-optional'?: boolean; requestBody?: { required?: boolean } }>> } }
      ).openapiObject;
      for (const item of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(item)) {
          if (op && typeof op === 'object' && op['x-body-optional']) {
            delete op['x-body-optional'];
            if (op.requestBody) op.requestBody.required = false;
          }
        }
      }
      const out = doc as typeof doc & { webhooks?: unknown; components?: { schemas?: Record<string, unknown> } };
      out.webhooks = webhooksSection();
      out.components = { ...out.components, schemas: { ...out.components?.schemas, ...webhookPayloadComponents() } };
      return out;
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String((json as { $id?: string }).$id ?? `def-${i}`),
    },
  });
  await registerDocsPage(app);
}
