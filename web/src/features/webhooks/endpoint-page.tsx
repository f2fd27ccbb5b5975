import { Link, useParams } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Page } from '../../components/page';
import { formatDateTime } from '../../lib/format';
import { canManage, useSession } from '../../lib/session';
import { useDeliveries, useEndpoint, useHealth } from './api';
import { DeliveriesTable } from './deliveries-table';
import { EndpointActions } from './endpoint-actions';

export function EndpointPage() {
  const id = Number(useParams({ from: '/signed-in/webhooks/endpoints/$endpointId' }).endpointId);
  const manage = canManage(useSession().user.role);
  const endpoint = useEndpoint(id);
  const health = useHealth().data?.data.find((h) => h.endpoint_id === id);
  const recent = useDeliveries({ endpoint_id: id }, 10);
  if (endpoint.error) return <Alert>{endpoint.error.message}</Alert>;
  const e = endpoint.data;
  return (
    <Page title={e ? e.name : 'Endpoint'}>
      {e ? (
        <div className="stack">
          <dl className="kv card">
            <dt>URL</dt>
            <dd className="mono">{e.url}</dd>
            <dt>Events</dt>
            <dd className="mono">{e.event_types.join(', ')}</dd>
            <dt>Status</dt>
            <dd>
              {e.enabled ? 'Enabled' : 'Disabled'}
              {e.disabled_reason ? ` (${e.disabled_reason})` : ''}
            </dd>
            <dt>Last 24 hours</dt>
            <dd>
              {health && health.attempts > 0
                ? `${health.succeeded} of ${health.attempts} attempts succeeded (${health.success_rate}%)${health.last_failure_at ? `; last failure ${formatDateTime(health.last_failure_at)}: ${health.last_failure_error}` : ''}`
                : 'No attempts'}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(e.created_at)}</dd>
          </dl>
          {manage ? <EndpointActions endpoint={e} /> : <p className="muted">Owners and admins manage endpoints.</p>}
          <h2>Recent deliveries</h2>
          <DeliveriesTable deliveries={recent.data?.data ?? []} endpoints={[e]} caption={`Recent deliveries to ${e.name}`} />
          <p>
            <Link to="/webhooks/deliveries" search={{ endpoint_id: id }}>
              All deliveries to this endpoint
            </Link>
          </p>
        </div>
      ) : (
        <p>Loading…</p>
      )}
    </Page>
  );
}
