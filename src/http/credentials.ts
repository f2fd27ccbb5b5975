import type { onSendHookHandler, RouteOptions } from 'fastify';
import type { App } from './types.ts';

/** Response properties that show a credential: `secret`, `signing_secret`, `token`, `csrf_token`, `password`. */
const CREDENTIAL_PROPERTY = /(^|_)(secret|token|password)$/;

/**
 * Whether a response schema can show a credential: a property so named anywhere in it (`$ref`s
 * followed, through `resolve`). A `$ref` that does not resolve is an error, not a "no": a route must
 * never pass for credential-free because its schema was registered too late to be read.
 */
export function showsCredential(schema: unknown, resolve: (id: string) => unknown, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const target = resolve(s.$ref.replace(/#$/, ''));
    if (target === undefined) throw new Error(`the response schema $ref ${s.$ref} is not registered`);
    if (showsCredential(target, resolve, seen)) return true;
  }
  const properties = s.properties;
  if (properties !== null && typeof properties === 'object' && Object.keys(properties).some((name) => CREDENTIAL_PROPERTY.test(name))) return true;
  // Every member: the statuses of a route's `response`, properties, items, allOf, anyOf, oneOf.
  return Object.values(s).some((child) => showsCredential(child, resolve, seen));
}

const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('Cache-Control', 'no-store');
  done(null, payload);
};

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD url` of every route whose answer can show a credential (http/credentials.ts), in registration order. */
    credentialRoutes: readonly string[];
  }
}

/**
 * Answers that show a credential (a webhook signing secret on creation and rotation, an API key's
 * secret, a session's CSRF token), decided once per route from its response schema when the route is
 * registered (`config.answersCredential`): they are sent with `Cache-Control: no-store`, replays of
 * them included, and their stored idempotent copies are encrypted at rest (modules/idempotency).
 * Registered before any route.
 */
export function registerCredentialAnswers(app: App): void {
  const routes: string[] = [];
  app.decorate('credentialRoutes', routes);
  app.addHook('onRoute', function (route: RouteOptions) {
    if (!route.schema?.response || !showsCredential(route.schema.response, (id) => this.getSchema(id))) return;
    route.config = { ...route.config, answersCredential: true };
    route.onSend = [...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]), noStore];
    routes.push(`${String(route.method)} ${route.url}`);
  });
}
