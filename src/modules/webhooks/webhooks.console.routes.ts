import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams, Nullable, NullableTimestamp } from '../../http/schemas.ts';
import { EVENT_TYPES, type EventType } from '../events/catalog.ts';
import { endpointHealth, HEALTH_WINDOW_MS } from './health.ts';
import { sendTestEvent } from './test-send.ts';

const EndpointHealth = Type.Object(
  {
    endpoint_id: Type.Integer(),
    attempts: Type.Integer({ description: 'Attempts in the last 24 hours.' }),
    succeeded: Type.Integer({ description: 'Of those, answered 2xx.' }),
    failed: Type.Integer(),
    success_rate: Nullable(Type.Number({ description: 'Percent succeeded, 1 decimal; null without attempts.' })),
    last_failure_at: NullableTimestamp('The latest failed attempt in the window.'),
    last_failure_error: Nullable(Type.String({ description: 'Its error class.' })),
    last_failure_status: Nullable(Type.Integer({ description: 'Its HTTP status, 0 when no response came.' })),
    pending: Type.Integer({ description: 'Deliveries due for an attempt now.' }),
  },
  { title: 'WebhookEndpointHealth' },
);

const TestSendBody = Type.Object(
  {
    event_type: Type.String({ enum: [...EVENT_TYPES] as string[], description: 'The catalog event to send an example of.' }),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alternative to the Idempotency-Key header.' })),
  },
  { additionalProperties: false },
);

/** What the console's webhook pages need beyond the specification's routes: health and the test send. */
export function registerWebhookConsoleRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/webhooks/endpoint-health',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'getWebhookEndpointHealth',
        summary: 'Delivery health of every endpoint over the last 24 hours',
        tags: ['webhooks'],
        response: { 200: Type.Object({ window_hours: Type.Integer(), data: Type.Array(EndpointHealth) }, { title: 'WebhookEndpointHealthList' }) },
      },
    },
    async (request) => ({ window_hours: HEALTH_WINDOW_MS / 3_600_000, data: await endpointHealth(deps.db, request.auth.accountId, deps.clock.now()) }),
  );

  app.post(
    '/webhooks/endpoints/:id/test',
    {
      config: { scope: 'webhooks:write', role: 'admin', errors: ['webhook_endpoint_not_found', 'no_example_available', 'conflict'] },
      schema: {
        operationId: 'sendWebhookTest',
        summary: 'Send a test event to one endpoint',
        description:
          "Builds an example of `event_type` from the account's newest record that truly fits it (the newest won deal for " +
          '`deal.won`, …), with a new event id and top-level `"test": true`, and delivers it to this endpoint only, with the ' +
          'header `X-Service-Test: 1`. Answers 202 with the delivery (`test: true`); its attempts show the trigger `test` and a ' +
          'failure is not retried on the schedule (retry it by hand). No fitting record: 422 `no_example_available`. A disabled ' +
          'endpoint: 409 `conflict`.',
        tags: ['webhooks'],
        params: IdParams,
        body: TestSendBody,
        response: { 202: { $ref: 'WebhookDelivery' } },
      },
    },
    async (request, reply) => {
      const delivery = await sendTestEvent(deps, request.auth.accountId, request.params.id, request.body.event_type as EventType);
      return reply.code(202).send(delivery);
    },
  );
}
