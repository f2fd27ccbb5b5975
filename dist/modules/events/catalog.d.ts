/** Exactly the allowed event types of the specification's catalog. */
export declare const EVENT_TYPES: readonly ['deal.created', 'deal.won', 'deal.lost', 'deal.activity.created', 'support.ticket.opened', 'support.ticket.closed', 'support.log.created'];
export type EventType = (typeof EVENT_TYPES)[number];
export declare function isEventType(value: string): value is EventType;
/** Entity fields per event type, typed from the payload schemas (payloads.ts). */
export type { EventEntities } from './payloads.ts';
