import { Type, type Static, type TSchema } from 'typebox';
import { Id } from '../../http/schemas.ts';
import { ACTIVITY_KINDS, Deal } from '../deals/deals.schemas.ts';
import { TICKET_STATUSES } from '../support/support.schemas.ts';
import type { EventType } from './catalog.ts';

/**
 * The exact payload of every catalog event. `emitEvent` takes its entity fields typed from these
 * schemas, and the OpenAPI document's `webhooks` section is generated from them, so the document and
 * what is sent cannot drift apart. The top level is closed (exactly these keys); nested objects may
 * grow, as the catalog promises receivers.
 */
const LostReason = Type.Object({ code: Type.String(), label: Type.String() }, { description: 'Why the deal was lost.' });

const entities = {
  'deal.created': { deal_id: Id('The deal.'), deal: Deal },
  'deal.won': { deal_id: Id('The deal.'), deal: Deal },
  'deal.lost': {
    deal_id: Id('The deal.'),
    deal: Deal,
    lost_reason: Type.Optional(Type.Union([LostReason, Type.Null()], { description: 'Present when the deal has a lost reason.' })),
  },
  'deal.activity.created': {
    deal_id: Id('The deal the activity was logged on.'),
    entity_type: Type.Literal('deal_activity'),
    entity_id: Id('The activity id.'),
    activity: Type.Object(
      { id: Id(), event_type: Type.Enum([...ACTIVITY_KINDS], { description: 'The activity kind.' }), message: Type.String() },
      { description: 'The activity (GET /deals/{deal_id}/activities/{id} has all its fields).' },
    ),
  },
  'support.ticket.opened': { slog_id: Id('The ticket.'), slog: slog('The ticket that was opened or reopened.') },
  'support.ticket.closed': { slog_id: Id('The ticket.'), slog: slog('The ticket that was closed.') },
  'support.log.created': {
    support_log_id: Id('The log.'),
    support_log: Type.Object(
      { id: Id(), note: Type.String(), channel: Type.String() },
      { description: 'The support log (GET /support/tickets/{ticket}/logs/{id} has all its fields).' },
    ),
  },
} satisfies Record<EventType, Record<string, TSchema>>;

function slog(description: string) {
  return Type.Object({ id: Id(), title: Type.String(), status: Type.Enum([...TICKET_STATUSES]) }, { description });
}

export const FIRES_WHEN: Record<EventType, string> = {
  'deal.created': 'A deal is created.',
  'deal.won': 'A deal is marked won.',
  'deal.lost': 'A deal is marked lost.',
  'deal.activity.created': 'A timeline activity is logged on a deal.',
  'support.ticket.opened': 'A ticket is opened, or a closed ticket is reopened.',
  'support.ticket.closed': 'A ticket is closed.',
  'support.log.created': 'A support log is written (the first log of a new ticket included).',
};

/** The fields every payload starts with. */
function common<T extends EventType>(type: T) {
  return {
    id: Type.String({ pattern: '^evt_', description: 'The event id: the same on every retry (X-Service-Event-Id, webhook-id); de-duplicate on it.' }),
    event_type: Type.Literal(type, { description: 'Equals X-Service-Event.' }),
    org_id: Id('The customer org the entity belongs to.'),
    timestamp: Type.String({ format: 'date-time', description: 'Emission time, ISO-8601 UTC with milliseconds.' }),
  };
}

const options = (type: EventType) => ({ title: payloadTitle(type), description: FIRES_WHEN[type], additionalProperties: false });

/** `deal.activity.created` → `DealActivityCreatedEvent`. */
export function payloadTitle(type: EventType): string {
  return (
    type
      .split('.')
      .map((w) =>
        w
          .split('_')
          .map((p) => p[0].toUpperCase() + p.slice(1))
          .join(''),
      )
      .join('') + 'Event'
  );
}

export const EVENT_PAYLOADS = {
  'deal.created': Type.Object({ ...common('deal.created'), ...entities['deal.created'] }, options('deal.created')),
  'deal.won': Type.Object({ ...common('deal.won'), ...entities['deal.won'] }, options('deal.won')),
  'deal.lost': Type.Object({ ...common('deal.lost'), ...entities['deal.lost'] }, options('deal.lost')),
  'deal.activity.created': Type.Object({ ...common('deal.activity.created'), ...entities['deal.activity.created'] }, options('deal.activity.created')),
  'support.ticket.opened': Type.Object({ ...common('support.ticket.opened'), ...entities['support.ticket.opened'] }, options('support.ticket.opened')),
  'support.ticket.closed': Type.Object({ ...common('support.ticket.closed'), ...entities['support.ticket.closed'] }, options('support.ticket.closed')),
  'support.log.created': Type.Object({ ...common('support.log.created'), ...entities['support.log.created'] }, options('support.log.created')),
};

export type EventPayload<T extends EventType> = Static<(typeof EVENT_PAYLOADS)[T]>;
/** The entity fields of each event type: the payload without id, event_type, org_id and timestamp. */
export type EventEntities = { [T in EventType]: Omit<EventPayload<T>, 'id' | 'event_type' | 'org_id' | 'timestamp'> };
/** Any delivered payload; narrow it on `event_type`. */
export type WebhookEvent = { [T in EventType]: EventPayload<T> }[EventType];
