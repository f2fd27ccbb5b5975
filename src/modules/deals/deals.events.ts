import type { WriteContext } from '../../lib/write.ts';
import type { DealActivityView, DealView } from './deals.schemas.ts';

/**
 * Every outbox event of the deals module is built here, so payload shapes, and which changes
 * emit what, live in one place. Nested `deal` carries the full deal JSON (the catalog requires at
 * least id, title, status; receivers treat further keys as forward-compatible).
 */

export function emitDealCreated(w: WriteContext, accountId: number, deal: DealView): void {
  w.emit({ accountId, orgId: deal.org_id, type: 'deal.created', entity: { deal_id: deal.id, deal } });
}

/**
 * The event a deal's new status implies, for a creation or a status move: won and lost have
 * one; an open status has none (the catalog has no deal.updated).
 */
export function emitStatusEvent(w: WriteContext, accountId: number, deal: DealView): void {
  if (deal.status === 'won') {
    w.emit({ accountId, orgId: deal.org_id, type: 'deal.won', entity: { deal_id: deal.id, deal } });
  } else if (deal.status === 'lost') {
    // lost_reason is optional in the catalog: present only when the deal has one (the nested deal shows null either way).
    const reason = deal.lost_reason ? { lost_reason: deal.lost_reason } : {};
    w.emit({ accountId, orgId: deal.org_id, type: 'deal.lost', entity: { deal_id: deal.id, deal, ...reason } });
  }
}

export function emitActivityCreated(w: WriteContext, accountId: number, orgId: number, activity: DealActivityView): void {
  w.emit({
    accountId,
    orgId,
    type: 'deal.activity.created',
    entity: {
      deal_id: activity.deal_id,
      entity_type: 'deal_activity',
      entity_id: activity.id,
      activity: { id: activity.id, event_type: activity.event_type, message: activity.message },
    },
  });
}
