import type { components, paths } from '../../../src/client/index.ts';

/** Response and request types of the API, named for the console (all derived from the OpenAPI document). */
export type Schemas = components['schemas'];
export type ApiKey = Schemas['ApiKey'];
export type Scope = ApiKey['scopes'][number];
export type User = Schemas['User'];
export type Role = User['role'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type DeliveryDetail = paths['/api/v1/webhooks/deliveries/{id}']['get']['responses'][200]['content']['application/json'];
export type EndpointHealth = paths['/api/v1/webhooks/endpoint-health']['get']['responses'][200]['content']['application/json']['data'][number];
export type EventType = paths['/api/v1/webhooks/deliveries']['get']['parameters']['query'] extends infer Q
  ? Q extends { event_type?: infer E }
    ? NonNullable<E>
    : never
  : never;
