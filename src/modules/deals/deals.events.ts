import type { Executor } from '../../db/database.ts';
import { emitEvent } from '../events/outbox.ts';
import type { DealActivityView, DealView } from './deals.schemas.ts';

/**
 * Every outbox event of the deals module is built here, so payload shapes live in one place.
 * Nested `deal` carries the full deal JSON (the catalog requires at least id, title, status;
 * receivers treat further keys as forward-compatible).
 */
interface Ctx {
  accountId: number;
  now: number;
}

export async function emitDealCreated(trx: Executor, ctx: Ctx, deal: DealView): Promise<void> {
  await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.created', entity: { deal_id: deal.id, deal } });
}

/** The event a status change implies: won and lost have one; moves to an open status have none (no deal.updated exists). */
export async function emitStatusEvent(trx: Executor, ctx: Ctx, deal: DealView): Promise<void> {
  if (deal.status === 'won') {
    await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.won', entity: { deal_id: deal.id, deal } });
  } else if (deal.status === 'lost') {
    // lost_reason is optional in the catalog: present only when the deal has one (the nested deal shows null either way).
    const reason = deal.lost_reason ? { lost_reason: deal.lost_reason } : {};
    await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.lost', entity: { deal_id: deal.id, deal, ...reason } });
  }
}

export async function emitActivityCreated(trx: Executor, ctx: Ctx & { orgId: number }, activity: DealActivityView): Promise<void> {
  await emitEvent(trx, {
    accountId: ctx.accountId,
    now: ctx.now,
    orgId: ctx.orgId,
    type: 'deal.activity.created',
    entity: {
      deal_id: activity.deal_id,
      entity_type: 'deal_activity',
      entity_id: activity.id,
      activity: { id: activity.id, event_type: activity.event_type, message: activity.message },
    },
  });
}
