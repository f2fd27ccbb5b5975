import { EVENT_TYPES } from '../modules/events/catalog.ts';
import { EVENT_PAYLOADS, FIRES_WHEN, payloadTitle } from '../modules/events/payloads.ts';

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per catalog event, its body the exact payload schema
 * `emitEvent` is typed from (events/payloads.ts), and the signature headers every delivery carries.
 * Payload schemas go into components/schemas under their title, so generators name their types.
 */

const header = (name: string, description: string, required = true, example?: string) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string', ...(example ? { examples: [example] } : {}) },
});

export const DELIVERY_HEADERS = [
  header(
    'X-Service-Signature',
    'Lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the whole `whsec_…` secret string (its UTF-8 bytes). Compare in constant time.',
  ),
  header(
    'X-Service-Signature-Previous',
    'For 24 hours after a secret rotation: the same signature made with the previous secret. Accept either while you switch.',
    false,
  ),
  header('X-Service-Event', 'The event type; equals the payload `event_type`.', true, 'deal.won'),
  header('X-Service-Event-Id', 'The event id (`evt_…`), the same on every retry: de-duplicate on it.'),
  header('X-Service-Delivery', 'The delivery id (GET /api/v1/webhooks/deliveries/{id}).', true, '42'),
  header('webhook-id', 'Standard Webhooks: the event id (equals X-Service-Event-Id).'),
  header('webhook-timestamp', 'Standard Webhooks: signing time, Unix seconds. Refuse timestamps more than 300 s from now.', true, '1764000000'),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed with the base64-decoded part of the secret after `whsec_`; ' +
      'during a rotation two signatures, space-separated, newest first. Stock Standard Webhooks libraries verify it.',
  ),
];

/** A JSON copy of a TypeBox schema in which every registered shared schema (by `$id`) becomes a component reference. */
export function toDocumentSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toDocumentSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const obj = schema as Record<string, unknown>;
  if (typeof obj.$id === 'string') return { $ref: `#/components/schemas/${obj.$id}` };
  if (typeof obj.$ref === 'string' && !obj.$ref.startsWith('#')) return { ...obj, $ref: `#/components/schemas/${obj.$ref}` };
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, toDocumentSchema(v)]));
}

export function webhookPayloadComponents(): Record<string, unknown> {
  return Object.fromEntries(EVENT_TYPES.map((type) => [payloadTitle(type), toDocumentSchema(EVENT_PAYLOADS[type])]));
}

export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replaceAll('.', '_')}`,
          summary: `The ${type} event`,
          description:
            `${FIRES_WHEN[type]} Sent to every enabled endpoint subscribed to \`${type}\`, at least once. ` +
            'Verify the signature over the raw body bytes before parsing (docs/webhooks.md, or `custops/webhooks` of the npm package).',
          tags: ['webhooks'],
          security: [],
          parameters: DELIVERY_HEADERS,
          requestBody: {
            required: true,
            description: 'The event payload (under 256 KiB). Nested objects may gain fields: treat unknown keys as forward-compatible.',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${payloadTitle(type)}` } } },
          },
          responses: {
            '200': { description: 'Any 2xx within 15 seconds (5 to connect) acknowledges the delivery; the body is ignored.' },
            '410': { description: 'Gone: the endpoint is disabled at once (`disabled_reason: gone`) and no further attempts are made.' },
            '500': {
              description:
                'Any other status, a redirect, or no answer in time fails the attempt; it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±20 %), honouring Retry-After within 1× to 2× the delay.',
            },
          },
        },
      },
    ]),
  );
}
