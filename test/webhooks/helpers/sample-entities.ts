import type { EventEntities, EventType } from '../../../src/modules/events/catalog.ts';

type WonDeal = EventEntities['deal.won']['deal'];

/** A won deal as the API renders it in an event, with any fields changed by `over`. */
export function wonDeal(over: Partial<WonDeal> = {}): WonDeal {
  return {
    id: 11,
    org_id: 7,
    contact_id: null,
    owner_user_id: null,
    title: 'Renewal 2027',
    status: 'won',
    value: '1250.00',
    currency: 'EUR',
    payment_customer_id: null,
    next_followup_at: null,
    lost_reason: null,
    closed_at: '2026-11-20T10:00:00.000Z',
    closed_by_user_id: null,
    last_activity_at: '2026-11-20T10:00:00.000Z',
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

const deal = wonDeal();

/** One entity of every event type, of the shapes the services send. */
export const SAMPLE_ENTITIES: { [K in EventType]: EventEntities[K] } = {
  'deal.created': { deal_id: 11, deal: { ...deal, status: 'new', closed_at: null } },
  'deal.won': { deal_id: 11, deal },
  'deal.lost': {
    deal_id: 11,
    deal: { ...deal, status: 'lost', lost_reason: { code: 'price', label: 'Too expensive' } },
    lost_reason: { code: 'price', label: 'Too expensive' },
  },
  'deal.activity.created': {
    deal_id: 11,
    entity_type: 'deal_activity',
    entity_id: 5,
    activity: { id: 5, event_type: 'call', message: 'Called — left a voicemail ✓' },
  },
  'support.ticket.opened': { slog_id: 3, slog: { id: 3, title: 'Cannot log in', status: 'open' } },
  'support.ticket.closed': { slog_id: 3, slog: { id: 3, title: 'Cannot log in', status: 'closed' } },
  'support.log.created': { support_log_id: 9, support_log: { id: 9, note: 'Reset the password', channel: 'api' } },
};
