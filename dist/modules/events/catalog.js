/** Exactly the allowed event types of the specification's catalog. */
export const EVENT_TYPES = [
    'deal.created',
    'deal.won',
    'deal.lost',
    'deal.activity.created',
    'support.ticket.opened',
    'support.ticket.closed',
    'support.log.created',
];
export function isEventType(value) {
    return EVENT_TYPES.includes(value);
}
