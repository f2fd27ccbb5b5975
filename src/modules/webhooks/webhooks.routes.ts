import type { TSchema } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { App } from '../../http/types.ts';
import { recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { writeRoute } from '../../http/write-routes.ts';
import { pageOf } from '../../lib/pagination.ts';
import * as endpoints from './endpoints.service.ts';
import * as deliveries from './deliveries.service.ts';
import { createQueueRegistry, METRICS_CONTENT_TYPE, renderMetrics } from './metrics.ts';
import {
  CreateEndpointBody,
  DeliveryList,
  DeliveryListQuery,
  EmptyWriteBody,
  EndpointList,
  EndpointListQuery,
  RecoverBody,
  RecoverResult,
  RotatedEndpoint,
  UpdateEndpointBody,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './webhooks.schemas.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const webhookSchemas: TSchema[] = [WebhookEndpoint, WebhookDelivery, WebhookAttempt];

const tags = ['webhooks'];
const read = { scope: 'webhooks:read' as const };
// Members may not manage endpoints from the console (docs/design.md#webhooks); keys are judged by their scopes.
const write = { scope: 'webhooks:write' as const, role: 'admin' as const };
// A change to one endpoint or delivery, named by id in the path.
const manage = { ...write, tags, params: IdParams };
// GET of one endpoint and of one delivery belong to webhook management (webhooks:write, docs/design.md#webhooks);
// they are reads too, so either scope grants them.
const readOrManage = { scope: ['webhooks:read', 'webhooks:write'] as ('webhooks:read' | 'webhooks:write')[] };
const endpointRef = { $ref: 'WebhookEndpoint' };

const deliveryRef = { $ref: 'WebhookDelivery' };

export function registerWebhookRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/webhooks/endpoints',
    {
      config: { ...read, errors: [] },
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints (no secrets)',
        tags,
        querystring: EndpointListQuery,
        response: { 200: EndpointList },
      },
    },
    async (request) => endpoints.listEndpoints(deps.db, request.auth.accountId, pageOf(request.query)),
  );

  writeRoute(app, '/webhooks/endpoints', {
    ...write,
    method: 'POST',
    errors: [],
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint; the answer holds its signing secret, shown only this once',
    description:
      'HTTPS only. Loopback, private, link-local, CGNAT, multicast, reserved and cloud-metadata addresses are refused (422, `fields.url`). ' +
      'A server started with CUSTOPS_WEBHOOK_ALLOW_PRIVATE=1 (local development only) accepts those addresses, and plain `http://` to a loopback address (`localhost`, 127.0.0.0/8, `::1`).',
    tags,
    body: CreateEndpointBody,
    status: 201,
    response: WebhookEndpointWithSecret,
    write: ({ accountId, body, claim }) => endpoints.createEndpoint(deps, accountId, body, claim),
  });

  recordRoute(app, '/webhooks/endpoints/:id', {
    ...readOrManage,
    errors: ['webhook_endpoint_not_found'],
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint (no secret)',
    tags,
    params: IdParams,
    response: endpointRef,
    get: (accountId, params) => endpoints.getEndpoint(deps.db, accountId, params.id),
  });

  writeRoute(app, '/webhooks/endpoints/:id', {
    ...manage,
    method: 'PATCH',
    errors: ['webhook_endpoint_not_found'],
    operationId: 'updateWebhookEndpoint',
    summary: 'Change name, url, event_types or enabled',
    description: '`enabled: true` re-enables an endpoint disabled by a 410 or after 5 days of failures, and clears disabled_reason.',
    body: UpdateEndpointBody,
    status: 200,
    response: endpointRef,
    write: ({ accountId, params, body, claim }) => endpoints.updateEndpoint(deps, accountId, params.id, body, claim),
  });

  writeRoute(app, '/webhooks/endpoints/:id', {
    ...manage,
    method: 'DELETE',
    errors: ['webhook_endpoint_not_found'],
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint with its delivery log',
    status: 204,
    response: { type: 'null', description: 'Deleted.' },
    write: ({ accountId, params, claim }) => endpoints.deleteEndpoint(deps, accountId, params.id, claim),
  });

  writeRoute(app, '/webhooks/endpoints/:id/rotate-secret', {
    ...manage,
    method: 'POST',
    errors: ['webhook_endpoint_not_found'],
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
    description:
      'The new secret is shown only in this answer. For 24 hours deliveries also carry the old secret’s signature in X-Service-Signature-Previous and as the second webhook-signature.',
    body: EmptyWriteBody,
    optionalBody: true,
    status: 200,
    response: RotatedEndpoint,
    write: ({ accountId, params, claim }) => endpoints.rotateSecret(deps, accountId, params.id, claim),
  });

  writeRoute(app, '/webhooks/endpoints/:id/recover', {
    ...manage,
    method: 'POST',
    errors: ['webhook_endpoint_not_found'],
    operationId: 'recoverWebhookEndpoint',
    summary: 'Re-queue the endpoint’s failed deliveries created in a time window',
    body: RecoverBody,
    status: 202,
    response: RecoverResult,
    write: ({ accountId, params, body, claim }) => endpoints.recoverEndpoint(deps, accountId, params.id, body, claim),
  });

  app.get(
    '/webhooks/deliveries',
    {
      config: { ...read, errors: ['webhook_endpoint_not_found'] },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log, newest first',
        description: 'Standard `{data, pagination}`; `limit` is an alias of `per_page` (the smaller wins when both are given).',
        tags,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryList },
      },
    },
    async (request) => deliveries.listDeliveries(deps.db, request.auth.accountId, request.query),
  );

  recordRoute(app, '/webhooks/deliveries/:id', {
    ...readOrManage,
    errors: ['webhook_delivery_not_found'],
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with every attempt',
    tags,
    params: IdParams,
    response: WebhookDeliveryDetail,
    get: (accountId, params) => deliveries.getDelivery(deps.db, accountId, params.id),
  });

  writeRoute(app, '/webhooks/deliveries/:id/retry', {
    ...manage,
    method: 'POST',
    errors: ['webhook_delivery_not_found', 'conflict'],
    operationId: 'retryWebhookDelivery',
    summary: 'Queue one more attempt now (trigger manual)',
    body: EmptyWriteBody,
    optionalBody: true,
    status: 202,
    response: deliveryRef,
    write: ({ accountId, params, claim }) => deliveries.retryDelivery(deps, accountId, params.id, claim),
  });
}

const metricsRouteSchema = {
  operationId: 'getMetrics',
  summary: 'Prometheus metrics',
  description:
    'Prometheus text format, for `Authorization: Bearer <CUSTOPS_METRICS_TOKEN>`; without a configured token the route does not exist (404), as it counts across every account. ' +
    'Webhook delivery counts by status, queue depth and oldest due age (read from the database, the same from any process); ' +
    "this process's delivery attempts and their latency; dependency state; HTTP requests of this process by method, route pattern and status " +
    '(`custops_http_requests_total`) with their latency (`custops_http_request_duration_seconds`).',
  tags: ['meta'],
  security: [{ metricsToken: [] }],
  response: {
    200: { description: 'The metrics, Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: { type: 'string' } } } },
  },
};

/**
 * `GET /metrics` (Prometheus text format, the metrics token, outside /api/v1): delivery counts by status,
 * queue depth and oldest due age from the database, plus this process's attempt counters and latency.
 */
export function registerMetricsRoute(
  app: App,
  deps: ModuleDeps,
  options: { onRequest: (request: FastifyRequest) => Promise<void>; registries: Registry[] },
): void {
  const queue = createQueueRegistry(deps.db, deps.clock);
  app.get(
    '/metrics',
    { config: { scope: null, errors: ['unauthorized', 'not_found'] }, schema: metricsRouteSchema, onRequest: options.onRequest },
    async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(await renderMetrics(queue, options.registries)),
  );
}
