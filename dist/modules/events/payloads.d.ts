import { Type, type Static } from 'typebox';
import type { EventType } from './catalog.ts';
export declare const FIRES_WHEN: Record<EventType, string>;
/** `deal.activity.created` → `DealActivityCreatedEvent`. */
export declare function payloadTitle(type: EventType): string;
export declare const EVENT_PAYLOADS: {
    readonly 'deal.created': Type.TObject<Type.TProperties>;
    readonly 'deal.won': Type.TObject<Type.TProperties>;
    readonly 'deal.lost': Type.TObject<Type.TProperties>;
    readonly 'deal.activity.created': Type.TObject<Type.TProperties>;
    readonly 'support.ticket.opened': Type.TObject<Type.TProperties>;
    readonly 'support.ticket.closed': Type.TObject<Type.TProperties>;
    readonly 'support.log.created': Type.TObject<Type.TProperties>;
};
export type EventPayload<T extends EventType> = Static<(typeof EVENT_PAYLOADS)[T]>;
/** The entity fields of each event type: the payload without id, event_type, org_id and timestamp. */
export type EventEntities = {
    [T in EventType]: Omit<EventPayload<T>, 'id' | 'event_type' | 'org_id' | 'timestamp'>;
};
/** Any delivered payload; narrow it on `event_type`. */
export type WebhookEvent = {
    [T in EventType]: EventPayload<T>;
}[EventType];
