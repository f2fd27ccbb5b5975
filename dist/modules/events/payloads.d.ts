import { Type, type Static } from 'typebox';
import type { EventType } from './catalog.ts';
export declare const FIRES_WHEN: Record<EventType, string>;
/** `deal.activity.created` → `DealActivityCreatedEvent`. */
export declare function payloadTitle(type: EventType): string;
export declare const EVENT_PAYLOADS: {
    'deal.created': Type.TObject<{
        deal_id: Type.TInteger;
        deal: Type.TObject<{
            id: Type.TInteger;
            org_id: Type.TInteger;
            contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            title: Type.TString;
            status: Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>;
            value: Type.TUnion<[Type.TString, Type.TNull]>;
            currency: Type.TUnion<[Type.TString, Type.TNull]>;
            payment_customer_id: Type.TUnion<[Type.TString, Type.TNull]>;
            next_followup_at: Type.TUnion<[Type.TString, Type.TNull]>;
            lost_reason: Type.TUnion<[Type.TObject<{
                code: Type.TString;
                label: Type.TString;
            }>, Type.TNull]>;
            closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
            closed_by_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            last_activity_at: Type.TString;
            created_at: Type.TString;
            updated_at: Type.TString;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"deal.created">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'deal.won': Type.TObject<{
        deal_id: Type.TInteger;
        deal: Type.TObject<{
            id: Type.TInteger;
            org_id: Type.TInteger;
            contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            title: Type.TString;
            status: Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>;
            value: Type.TUnion<[Type.TString, Type.TNull]>;
            currency: Type.TUnion<[Type.TString, Type.TNull]>;
            payment_customer_id: Type.TUnion<[Type.TString, Type.TNull]>;
            next_followup_at: Type.TUnion<[Type.TString, Type.TNull]>;
            lost_reason: Type.TUnion<[Type.TObject<{
                code: Type.TString;
                label: Type.TString;
            }>, Type.TNull]>;
            closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
            closed_by_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            last_activity_at: Type.TString;
            created_at: Type.TString;
            updated_at: Type.TString;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"deal.won">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'deal.lost': Type.TObject<{
        deal_id: Type.TInteger;
        deal: Type.TObject<{
            id: Type.TInteger;
            org_id: Type.TInteger;
            contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            title: Type.TString;
            status: Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>;
            value: Type.TUnion<[Type.TString, Type.TNull]>;
            currency: Type.TUnion<[Type.TString, Type.TNull]>;
            payment_customer_id: Type.TUnion<[Type.TString, Type.TNull]>;
            next_followup_at: Type.TUnion<[Type.TString, Type.TNull]>;
            lost_reason: Type.TUnion<[Type.TObject<{
                code: Type.TString;
                label: Type.TString;
            }>, Type.TNull]>;
            closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
            closed_by_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            last_activity_at: Type.TString;
            created_at: Type.TString;
            updated_at: Type.TString;
        }>;
        lost_reason: Type.TOptional<Type.TUnion<[Type.TObject<{
            code: Type.TString;
            label: Type.TString;
        }>, Type.TNull]>>;
        id: Type.TString;
        event_type: Type.TLiteral<"deal.lost">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'deal.activity.created': Type.TObject<{
        deal_id: Type.TInteger;
        entity_type: Type.TLiteral<"deal_activity">;
        entity_id: Type.TInteger;
        activity: Type.TObject<{
            id: Type.TInteger;
            event_type: Type.TEnum<["note", "email", "call", "meeting"]>;
            message: Type.TString;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"deal.activity.created">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'support.ticket.opened': Type.TObject<{
        slog_id: Type.TInteger;
        slog: Type.TObject<{
            id: Type.TInteger;
            title: Type.TString;
            status: Type.TEnum<["open", "pending", "closed"]>;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"support.ticket.opened">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'support.ticket.closed': Type.TObject<{
        slog_id: Type.TInteger;
        slog: Type.TObject<{
            id: Type.TInteger;
            title: Type.TString;
            status: Type.TEnum<["open", "pending", "closed"]>;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"support.ticket.closed">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
    'support.log.created': Type.TObject<{
        support_log_id: Type.TInteger;
        support_log: Type.TObject<{
            id: Type.TInteger;
            note: Type.TString;
            channel: Type.TString;
        }>;
        id: Type.TString;
        event_type: Type.TLiteral<"support.log.created">;
        org_id: Type.TInteger;
        timestamp: Type.TString;
    }>;
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
