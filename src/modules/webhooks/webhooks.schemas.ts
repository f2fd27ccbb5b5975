import { Type, type Static } from 'typebox';
import { DateParam, Id, ListOf, Nullable, PageQuery, Timestamp, NullableTimestamp } from '../../http/schemas.ts';
import { MAX_PER_PAGE } from '../../lib/pagination.ts';
import { EVENT_TYPES } from '../events/catalog.ts';

const EventTypeList = Type.Array(Type.String({ enum: [...EVENT_TYPES] as string[], description: 'One of the catalog event types.' }), {
  description: `Event types to receive: a non-empty subset of ${EVENT_TYPES.join(', ')}.`,
});

const endpointFields = {
  id: Id(),
  name: Type.String(),
  url: Type.String({ description: 'HTTPS URL the events are POSTed to.' }),
  event_types: EventTypeList,
  enabled: Type.Boolean(),
  disabled_reason: Nullable(
    Type.String({ description: '`gone` (the receiver answered 410), `failing_5_days` (every attempt failed for 5 days), `manual` (PATCH enabled=false).' }),
  ),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

export const WebhookEndpoint = Type.Object(endpointFields, {
  $id: 'WebhookEndpoint',
  title: 'WebhookEndpoint',
  description: 'A subscription. The signing secret is never part of it; it is shown once on create and on rotation.',
});
export type WebhookEndpointView = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ description: '`whsec_` and 32 random bytes in base64. Shown only in this response: store it now.' }),
  },
  { title: 'WebhookEndpointWithSecret' },
);

export const RotatedEndpoint = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ description: 'The new signing secret, shown only in this response.' }),
    previous_secret_expires_at: Timestamp('Until then the old secret also signs (X-Service-Signature-Previous, second webhook-signature).'),
  },
  { title: 'RotatedWebhookEndpoint' },
);

const name = Type.String({ minLength: 1, maxLength: 200 });
const url = Type.String({ minLength: 1, maxLength: 2048 });
const eventTypesInput = Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 });
const idempotencyKey = Type.Optional(Type.String({ description: 'Alternative to the Idempotency-Key header.' }));

export const CreateEndpointBody = Type.Object(
  { name, url, event_types: eventTypesInput, enabled: Type.Optional(Type.Boolean({ default: true })), idempotency_key: idempotencyKey },
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    name: Type.Optional(name),
    url: Type.Optional(url),
    event_types: Type.Optional(eventTypesInput),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a disabled endpoint and clears disabled_reason.' })),
    idempotency_key: idempotencyKey,
  },
  { additionalProperties: false },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

export const EmptyWriteBody = Type.Object({ idempotency_key: idempotencyKey }, { additionalProperties: false });

export const RecoverBody = Type.Object(
  {
    since: DateParam('Re-queue failed deliveries created at or after this time.'),
    until: Type.Optional(DateParam('… and at or before this time (a bare date covers the whole day). Default: now.')),
    idempotency_key: idempotencyKey,
  },
  { additionalProperties: false },
);

export const RecoverResult = Type.Object(
  { requeued: Type.Integer({ description: 'Failed deliveries queued for a new attempt.' }) },
  { title: 'RecoverResult' },
);

export const EndpointListQuery = Type.Object({ ...PageQuery });
export const EndpointList = ListOf(Type.Ref('WebhookEndpoint'), 'WebhookEndpointList');

const deliveryFields = {
  id: Id(),
  endpoint_id: Id(),
  event_id: Type.String({ description: 'The event id (`evt_…`): the payload `id` and X-Service-Event-Id.' }),
  event_type: Type.String(),
  status: Type.String({
    enum: ['pending', 'sent', 'failed'],
    description: '`pending` not yet attempted, `sent`, `failed` (with next_attempt_at while retries remain).',
  }),
  attempts: Type.Integer(),
  next_attempt_at: NullableTimestamp(),
  response_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; 0 when no response came.' })),
  error: Nullable(
    Type.String({
      description: 'Error class of the last attempt: http_status, timeout, connect_timeout, connection_refused, dns, tls, redirect, blocked_address, network.',
    }),
  ),
  duration_ms: Nullable(Type.Integer()),
  created_at: Timestamp(),
  last_attempt_at: NullableTimestamp(),
  test: Type.Boolean({ description: 'Made by a test send (`POST /webhooks/endpoints/{id}/test`): only its endpoint received it.' }),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery', title: 'WebhookDelivery' });
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

export const WebhookAttempt = Type.Object(
  {
    id: Id(),
    attempt_number: Type.Integer(),
    trigger: Type.String({
      enum: ['scheduled', 'manual', 'test'],
      description: '`scheduled` (the retry schedule), `manual` (retry or recover), `test` (a test send).',
    }),
    status_code: Type.Integer({ description: 'HTTP status, or 0 when no response came.' }),
    error: Nullable(Type.String({ description: 'Error class; null for a 2xx.' })),
    response_body: Nullable(Type.String({ description: 'The first 20 KiB of the response body.' })),
    duration_ms: Type.Integer(),
    requested_at: Timestamp(),
  },
  { $id: 'WebhookAttempt', title: 'WebhookAttempt' },
);

export const WebhookDeliveryDetail = Type.Object(
  {
    ...deliveryFields,
    attempts_log: Type.Array(Type.Ref('WebhookAttempt'), { description: 'Every attempt, oldest first.' }),
    payload: Type.Object({}, { additionalProperties: true, description: 'The exact JSON body sent (the same bytes on every attempt).' }),
    request_headers: Type.Record(Type.String(), Type.String(), {
      description:
        'The headers of the latest attempt (of the next one when none was made yet), with the signatures masked: the timestamps ' +
        'differ per attempt. During a secret rotation `X-Service-Signature-Previous` is sent too.',
    }),
  },
  { title: 'WebhookDeliveryDetail' },
);

export const DeliveryListQuery = Type.Object({
  event_type: Type.Optional(Type.String({ enum: [...EVENT_TYPES] as string[] })),
  status: Type.Optional(Type.String({ enum: ['pending', 'sent', 'failed'] })),
  endpoint_id: Type.Optional(Id('Only this endpoint’s deliveries.')),
  from: Type.Optional(DateParam('Created at or after.')),
  to: Type.Optional(DateParam('Created at or before (a bare date covers the whole day).')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'Alias of per_page; when both are given the smaller wins.' })),
  page: PageQuery.page,
  // No schema default here: the service must tell "per_page absent" from 25 to apply `limit`.
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Items per page, 1 to ${MAX_PER_PAGE}; default 25.` })),
  direction: Type.Optional(Type.String({ enum: ['asc', 'desc'], default: 'desc', description: 'created_at order; ties by id.' })),
});
export type DeliveryListQueryInput = Static<typeof DeliveryListQuery>;
export const DeliveryList = ListOf(Type.Ref('WebhookDelivery'), 'WebhookDeliveryList');
