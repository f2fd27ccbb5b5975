import { buildCachedSerializer } from './http/serialization.ts';
import { randomBytes } from 'node:crypto';
import Fastify, { type onRequestAsyncHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { accessChecks } from './http/auth.ts';
import { KeyCache } from './modules/api-keys/key-cache.ts';
import { AppError } from './lib/errors.ts';
import { createWrite } from './lib/write.ts';
import { guardText } from './http/text-guard.ts';
import { BODY_LIMIT, registerJsonBody } from './http/json-body.ts';
import { registerRouting } from './http/routing.ts';
import { errorBody, registerErrorHandling } from './http/errors.ts';
import { clientErrorHandler, frameworkErrorHandler } from './http/client-errors.ts';
import { API_PREFIX, decorateRouteSchemas, registerOpenApi } from './http/openapi.ts';
import { MemoryRateLimitStore, type RateLimitStore } from './http/rate-limit.ts';
import { ErrorResponse, PaginationSchema } from './http/schemas.ts';
import type { App } from './http/types.ts';
import { buildValidatorCompiler } from './http/validation.ts';
import type { ModuleDeps } from './http/deps.ts';
import { idempotencyPlugin } from './modules/idempotency/idempotency.plugin.ts';
import { registerMetaRoutes } from './modules/meta/meta.routes.ts';
import { createDependencyRegistry } from './modules/meta/dependencies.ts';
import { metricsAccess } from './modules/meta/metrics-access.ts';
import { registerOrgRoutes, orgSchemas } from './modules/orgs/orgs.routes.ts';
import { registerUserRoutes, userSchemas } from './modules/users/users.routes.ts';
import { registerContactRoutes, contactSchemas } from './modules/contacts/contacts.routes.ts';
import { registerDealRoutes, dealSchemas } from './modules/deals/deals.routes.ts';
import { registerSupportRoutes, supportSchemas } from './modules/support/support.routes.ts';
import { registerActivityRoutes, activitySchemas } from './modules/activity/activity.routes.ts';
import { registerAnalyticsRoutes, analyticsSchemas } from './modules/analytics/analytics.routes.ts';
import { registerCredentialAnswers } from './http/credentials.ts';
import { registerHttpMetrics } from './http/http-metrics.ts';
import { registerEventRoutes } from './modules/events/events.routes.ts';
import { registerMcpRoute } from './mcp/http.ts';
import { registerMetricsRoute, registerWebhookRoutes, webhookSchemas } from './modules/webhooks/webhooks.routes.ts';
import fastifyCookie from '@fastify/cookie';
import { registerSessionRoutes, sessionSchemas } from './modules/sessions/sessions.routes.ts';
import { apiKeySchemas, registerApiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { registerTeamRoutes } from './modules/team/team.routes.ts';
import { registerWebhookConsoleRoutes } from './modules/webhooks/webhooks.console.routes.ts';
import { createSessionAuthenticator } from './modules/sessions/session-auth.ts';
import { registerConsole } from './modules/console/console.static.ts';
import { VERSION } from './version.ts';

export { VERSION };

/** `req_` + 8 random bytes per process + a counter: unique across processes without a CSPRNG call per request. */
function requestIds(): () => string {
  const prefix = 'req_' + randomBytes(8).toString('hex');
  let n = 0;
  return () => prefix + (++n).toString(16).padStart(8, '0');
}

/**
 * The first stage: every answer carries X-Request-Id; while the server closes, requests get 503 and `Connection: close`.
 * The one async hook of the stages before the handler: the later stages are callback hooks (no promise
 * per request), and this one's promise keeps every answer out of the HTTP parser's callback, so a
 * request whose body then proves malformed gets the parser's 400 alone (docs/design.md#request-pipeline).
 */
function shutdownGate(app: App): onRequestAsyncHookHandler {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  return async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (closing) {
      reply.header('Connection', 'close');
      throw new AppError('service_unavailable', 'The server is shutting down; retry the request.');
    }
  };
}

export interface AppDeps {
  database: DatabaseHandle;
  clock?: Clock;
  rateLimitStore?: RateLimitStore;
  /** Wakes this process's webhook dispatcher; the write path calls it after a commit that queued deliveries. */
  wakeDispatcher?: () => void;
  /** Pino options or false; tests pass false. */
  logger?: boolean | object;
}

/**
 * The composition root: the request pipeline first (its stages in order, below), then each module's
 * routes, in the order they read in the API index.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<App> {
  const clock = deps.clock ?? systemClock;
  const nextRequestId = requestIds();
  let logClientError: (obj: object, msg: string) => void = () => {};
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    genReqId: nextRequestId,
    // Slow clients: the head must arrive within the headers time-out and the whole request within the
    // request time-out; Node checks every second (its default, 30 s, let a slow-header client hold a
    // socket for up to a minute and a half).
    requestTimeout: config.httpRequestTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    http: { headersTimeout: config.httpHeadersTimeoutMs, connectionsCheckingInterval: 1000 },
    clientErrorHandler: clientErrorHandler(nextRequestId, (obj, msg) => logClientError(obj, msg)),
    frameworkErrors: frameworkErrorHandler(errorBody),
    // CUSTOPS_TRUST_PROXY: only these proxies' X-Forwarded-For sets request.ip (logs, limits); nobody's by default.
    trustProxy: config.trustProxy.length ? [...config.trustProxy] : false,
    // While closing, requests on kept-alive connections get 503 service_unavailable in the error model (below).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  logClientError = (obj, msg) => app.log.info(obj, msg);

  // The Redis client is loaded only when Redis is configured (a process without it never holds ioredis).
  let store: RateLimitStore;
  if (deps.rateLimitStore) store = deps.rateLimitStore;
  else if (config.redisUrl) {
    const { RedisRateLimitStore } = await import('./http/rate-limit-redis.ts');
    const redis = new RedisRateLimitStore(config.redisUrl, { budgetMs: config.redisTimeoutMs, log: app.log });
    await redis.connected();
    store = redis;
  } else store = new MemoryRateLimitStore();
  if (!deps.rateLimitStore) app.addHook('onClose', () => store.close());

  const sharedSchemas = [
    ErrorResponse,
    PaginationSchema,
    ...orgSchemas,
    ...userSchemas,
    ...contactSchemas,
    ...dealSchemas,
    ...supportSchemas,
    ...activitySchemas,
    ...analyticsSchemas,
    ...webhookSchemas,
    ...sessionSchemas,
    ...apiKeySchemas,
  ];
  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(buildValidatorCompiler(sharedSchemas));

  const httpMetrics = registerHttpMetrics(app);
  registerErrorHandling(app, (err, reason) => deps.database.status.failed(err, reason));
  deps.database.status.attachLog(app.log);
  decorateRouteSchemas(app);
  registerCredentialAnswers(app);
  const routing = registerRouting(app);
  const closing = shutdownGate(app);
  const decodeJsonBody = registerJsonBody(app);
  const keys = new KeyCache(deps.database, app.log);
  app.addHook('onClose', () => keys.close());
  const authenticateSession = createSessionAuthenticator({ db: deps.database.db, clock, consoleRateLimitPerMinute: config.consoleRateLimitPerMinute });
  const access = accessChecks(app, { db: deps.database.db, keys, clock, store, defaultRateLimit: config.rateLimitPerMinute, authenticateSession });

  // The request pipeline (docs/design.md#request-pipeline). Each stage does one job and answers at
  // once when it refuses; the order is a contract of the API (401 → 403 → 429 → 403 → 422 → 404):
  //   onRequest      X-Request-Id; 503 while the server closes                             (above)
  //   onRequest      routing: 404 no such path, 405 + Allow (also the not-found handler)   http/routing.ts
  //   onRequest      authentication: API key or console session cookie, 401                http/auth.ts
  //   parsing        JSON only (415), at most 1 MiB (413), bytes kept for the signature     http/json-body.ts
  //   preValidation  signature or CSRF token 403 → rate limit 429 → scope or role 403        http/auth.ts
  //   preValidation  idempotency, bytes: replay a stored answer to the very same bytes      modules/idempotency
  //   preValidation  JSON decoding: not JSON or nested too deep, 422                        http/json-body.ts
  //   preValidation  NUL characters, integers not in decimal digits, 422                    http/text-guard.ts
  //   validation     the route's TypeBox schemas, 422 naming each field                     http/validation.ts
  //   preHandler     idempotency: replay a stored answer, or claim the key for the write    modules/idempotency
  //   handler        route → service → write (one transaction), 404 <thing>_not_found       modules/*, lib/write.ts
  // Any refusal or failure leaves through the one error handler (http/errors.ts).
  app.addHook('onRequest', closing);
  app.addHook('onRequest', routing);
  await app.register(fastifyCookie);
  app.addHook('onRequest', access.authenticate);
  app.addHook('preValidation', access.authorize);
  // Its bytes stage (preValidation) runs here, before decoding; its claim stage is a preHandler.
  await app.register(idempotencyPlugin, { db: deps.database.db, clock, ttlHours: config.idempotencyTtlHours, secretKey: config.secretKey });
  app.addHook('preValidation', decodeJsonBody);
  app.addHook('preValidation', guardText);

  await registerOpenApi(app, VERSION);
  const moduleDeps: ModuleDeps = {
    db: deps.database.db,
    config,
    clock,
    write: createWrite({ db: deps.database.db, clock, wakeDispatcher: deps.wakeDispatcher ?? (() => {}) }),
  };

  const dependencies = { db: deps.database.db, database: deps.database.status, rateLimit: store, checkpointer: deps.database.sqlite?.checkpointer?.stats };
  registerMetaRoutes(app, moduleDeps, dependencies);
  registerMetricsRoute(app, moduleDeps, { onRequest: metricsAccess(config.metricsToken), registries: [createDependencyRegistry(dependencies), httpMetrics] });
  await app.register(
    async (api) => {
      const v1 = api as unknown as App;
      registerOrgRoutes(v1, moduleDeps);
      registerUserRoutes(v1, moduleDeps);
      registerContactRoutes(v1, moduleDeps);
      registerDealRoutes(v1, moduleDeps);
      registerSupportRoutes(v1, moduleDeps);
      registerActivityRoutes(v1, moduleDeps);
      registerAnalyticsRoutes(v1, moduleDeps);
      registerWebhookRoutes(v1, moduleDeps);
      registerSessionRoutes(v1, moduleDeps);
      registerApiKeyRoutes(v1, moduleDeps);
      registerTeamRoutes(v1, moduleDeps);
      registerWebhookConsoleRoutes(v1, moduleDeps);
      registerEventRoutes(v1, moduleDeps);
    },
    { prefix: API_PREFIX },
  );
  // The same operations as MCP tools for AI agents, built from the OpenAPI document once the routes above are in.
  await registerMcpRoute(app, { db: deps.database.db, keys, clock, defaultRateLimit: config.rateLimitPerMinute, bodyLimit: BODY_LIMIT, version: VERSION });
  // The web console at / (same origin as the API, so the session cookie reaches /api/v1).
  await registerConsole(app);
  return app;
}
