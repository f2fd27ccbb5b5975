/** Exactly the allowed event types of the specification's catalog. */
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

export interface DealRef {
  id: number;
  title: string;
  status: string;
  [more: string]: unknown;
}

/** Entity fields per event type, as the catalog states them. */
export interface EventEntities {
  'deal.created': { deal_id: number; deal: DealRef };
  'deal.won': { deal_id: number; deal: DealRef };
  'deal.lost': { deal_id: number; deal: DealRef; lost_reason?: { code: string; label: string } | null };
  'deal.activity.created': {
    deal_id: number;
    entity_type: 'deal_activity';
    entity_id: number;
    activity: { id: number; event_type: string; message: string; [more: string]: unknown };
  };
  'support.ticket.opened': { slog_id: number; slog: { id: number; title: string; status: string; [more: string]: unknown } };
  'support.ticket.closed': { slog_id: number; slog: { id: number; title: string; status: string; [more: string]: unknown } };
  'support.log.created': { support_log_id: number; support_log: { id: number; note: string; channel: string; [more: string]: unknown } };
}
