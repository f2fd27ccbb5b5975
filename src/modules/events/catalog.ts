/**
 * Exactly the allowed event types of the specification's catalog. The web console imports this
 * module too (web/README.md): keep it free of Node-only code.
 */
export const EVENT_TYPES = [
  'deal.created',
  'deal.won',
  'deal.lost',
  'deal.activity.created',
  'support.ticket.opened',
  'support.ticket.closed',
  'support.log.created',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Entity fields per event type, typed from the payload schemas (payloads.ts). */
export type { EventEntities } from './payloads.ts';
