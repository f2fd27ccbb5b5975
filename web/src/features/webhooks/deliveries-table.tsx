import { Link } from '@tanstack/react-router';
import { DataTable } from '../../components/data-table';
import { formatDateTime } from '../../lib/format';
import type { WebhookDelivery, WebhookEndpoint } from '../../lib/types';
import { DeliveryStatus } from './status';

export function DeliveriesTable({ deliveries, endpoints, caption }: { deliveries: WebhookDelivery[]; endpoints: WebhookEndpoint[]; caption: string }) {
  const names = new Map(endpoints.map((e) => [e.id, e.name]));
  return (
    <DataTable caption={caption} columns={['Delivery', 'Event', 'Endpoint', 'Status', 'Response', 'Attempts', 'Created']}>
      {deliveries.map((d) => (
        <tr key={d.id}>
          <td>
            <Link to="/webhooks/deliveries/$deliveryId" params={{ deliveryId: String(d.id) }}>
              #{d.id}
            </Link>
            {d.test ? (
              <>
                {' '}
                <span className="badge badge-neutral">test</span>
              </>
            ) : null}
          </td>
          <td className="mono">{d.event_type}</td>
          <td>{names.get(d.endpoint_id) ?? `#${d.endpoint_id}`}</td>
          <td>
            <DeliveryStatus delivery={d} />
          </td>
          <td>
            {d.response_status === null
              ? '—'
              : d.response_status === 0
                ? d.error
                : `${d.response_status}${d.error && d.error !== 'http_status' ? ` ${d.error}` : ''}`}
          </td>
          <td>{d.attempts}</td>
          <td>{formatDateTime(d.created_at)}</td>
        </tr>
      ))}
      {deliveries.length === 0 ? (
        <tr>
          <td colSpan={7}>No deliveries match.</td>
        </tr>
      ) : null}
    </DataTable>
  );
}
