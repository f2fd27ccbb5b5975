import { emitEvent } from '../events/outbox.js';
export async function emitDealCreated(trx, ctx, deal) {
    await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.created', entity: { deal_id: deal.id, deal } });
}
/** The event a status change implies: won and lost have one; moves to an open status have none (no deal.updated exists). */
export async function emitStatusEvent(trx, ctx, deal) {
    if (deal.status === 'won') {
        await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.won', entity: { deal_id: deal.id, deal } });
    }
    else if (deal.status === 'lost') {
        // lost_reason is optional in the catalog: present only when the deal has one (the nested deal shows null either way).
        const reason = deal.lost_reason ? { lost_reason: deal.lost_reason } : {};
        await emitEvent(trx, { ...ctx, orgId: deal.org_id, type: 'deal.lost', entity: { deal_id: deal.id, deal, ...reason } });
    }
}
export async function emitActivityCreated(trx, ctx, activity) {
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
