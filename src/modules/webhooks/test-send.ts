import type { Executor } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { toActivityView } from '../deals/activities.service.ts';
import { toDealView } from '../deals/deals.service.ts';
import type { EventEntities, EventType } from '../events/catalog.ts';
import { newEventId } from '../events/outbox.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { toDeliveryView } from './deliveries.service.ts';
import * as deliveries from './deliveries.repository.ts';
import { findEndpoint } from './endpoints.repository.ts';
import type { WebhookDeliveryView } from './webhooks.schemas.ts';

interface Example<T extends EventType> {
  orgId: number;
  entity: EventEntities[T];
}

/**
 * The payload a real event of this type would carry, built from the account's newest record that
 * truly fits it (the newest won deal for deal.won, …), or null when the account has none.
 */
async function exampleOf(db: Executor, accountId: number, type: EventType): Promise<Example<EventType> | null> {
  switch (type) {
    case 'deal.created':
    case 'deal.won':
    case 'deal.lost': {
      let q = db.selectFrom('deals').selectAll().where('account_id', '=', accountId);
      q = type === 'deal.created' ? q.orderBy('created_at', 'desc') : q.where('status', '=', type === 'deal.won' ? 'won' : 'lost').orderBy('closed_at', 'desc');
      const row = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!row) return null;
      const deal = toDealView(row as Parameters<typeof toDealView>[0]);
      const reason = type === 'deal.lost' && deal.lost_reason ? { lost_reason: deal.lost_reason } : {};
      return { orgId: deal.org_id, entity: { deal_id: deal.id, deal, ...reason } };
    }
    case 'deal.activity.created': {
      const row = await db
        .selectFrom('deal_activities')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      const a = toActivityView(row as Parameters<typeof toActivityView>[0]);
      return {
        orgId: Number(row.org_id),
        entity: { deal_id: a.deal_id, entity_type: 'deal_activity', entity_id: a.id, activity: { id: a.id, event_type: a.event_type, message: a.message } },
      };
    }
    case 'support.ticket.opened':
    case 'support.ticket.closed': {
      let q = db.selectFrom('tickets').select(['id', 'org_id', 'title', 'status']).where('account_id', '=', accountId);
      q =
        type === 'support.ticket.closed'
          ? q.where('status', '=', 'closed').orderBy('closed_at', 'desc')
          : q.where('status', '!=', 'closed').orderBy('created_at', 'desc');
      const t = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!t) return null;
      return { orgId: Number(t.org_id), entity: { slog_id: Number(t.id), slog: { id: Number(t.id), title: t.title, status: t.status } } };
    }
    case 'support.log.created': {
      const l = await db
        .selectFrom('support_logs')
        .select(['id', 'org_id', 'note', 'channel'])
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!l) return null;
      return { orgId: Number(l.org_id), entity: { support_log_id: Number(l.id), support_log: { id: Number(l.id), note: l.note, channel: l.channel } } };
    }
  }
}

/**
 * A test send: one delivery of an example event to this endpoint only, now. The event gets a new
 * id and `"test": true`; it is written already dispatched, so the fan-out never offers it to the
 * account's other endpoints. The dispatcher sends it with `X-Service-Test: 1`, records its
 * attempts with the trigger `test`, and does not retry it on its own (Retry sends it again).
 */
export async function sendTestEvent(
  deps: Pick<ModuleDeps, 'db' | 'write'>,
  accountId: number,
  endpointId: number,
  type: EventType,
): Promise<WebhookDeliveryView> {
  const deliveryId = await deps.write(null, async (w) => {
    const { trx, now } = w;
    const endpoint = await findEndpoint(trx, accountId, endpointId);
    if (!endpoint) throw notFound('webhook_endpoint_not_found', endpointId);
    if (!endpoint.enabled) throw new AppError('conflict', 'The endpoint is disabled; enable it to send a test event.');
    const example = await exampleOf(trx, accountId, type);
    if (!example)
      throw new AppError('no_example_available', `The account has no record that a ${type} event could describe yet.`, {
        fields: { event_type: 'no_example_available' },
      });
    const publicId = newEventId();
    const payload = JSON.stringify({
      id: publicId,
      event_type: type,
      org_id: example.orgId,
      timestamp: new Date(now).toISOString(),
      ...example.entity,
      test: true,
    });
    const event = await trx
      .insertInto('events')
      .values({ account_id: accountId, public_id: publicId, event_type: type, org_id: example.orgId, payload, created_at: now, dispatched_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = await trx
      .insertInto('webhook_deliveries')
      .values({
        account_id: accountId,
        endpoint_id: endpointId,
        event_id: event.id,
        event_type: type,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        is_test: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await w.wakeDispatcher();
    return delivery.id;
  });
  const row = await deliveries.findDelivery(deps.db, accountId, deliveryId);
  return toDeliveryView(row!);
}
