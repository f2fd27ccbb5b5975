import type { WebhookDelivery } from '../../lib/types';

export function DeliveryStatus({ delivery }: { delivery: Pick<WebhookDelivery, 'status' | 'next_attempt_at'> }) {
  const tone = delivery.status === 'sent' ? 'sent' : delivery.status === 'failed' ? 'failed' : 'pending';
  const retrying = delivery.status === 'failed' && delivery.next_attempt_at;
  return <span className={`badge badge-${tone}`}>{retrying ? 'failed, will retry' : delivery.status}</span>;
}
