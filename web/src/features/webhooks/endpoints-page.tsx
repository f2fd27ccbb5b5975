import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { DataTable, EmptyRow } from '../../components/data-table';
import { Page } from '../../components/page';
import { formatDateTime, formatRelative } from '../../lib/format';
import { canManage, useSession } from '../../lib/session';
import { useEndpoints, useHealth } from './api';
import { EndpointFormDialog } from './endpoint-form-dialog';

export function EndpointsPage() {
  const manage = canManage(useSession().user.role);
  const endpoints = useEndpoints();
  const health = useHealth();
  const [adding, setAdding] = useState(false);
  const byEndpoint = new Map(health.data?.data.map((h) => [h.endpoint_id, h]));
  return (
    <Page
      title="Webhooks"
      actions={
        <>
          <Link className="btn btn-secondary" to="/webhooks/deliveries" search={{}}>
            All deliveries
          </Link>
          {manage ? (
            <Button variant="primary" onClick={() => setAdding(true)}>
              Add endpoint
            </Button>
          ) : null}
        </>
      }
    >
      {endpoints.error ? <Alert>{endpoints.error.message}</Alert> : null}
      <DataTable caption="Webhook endpoints with their last 24 hours" columns={['Endpoint', 'Events', 'Status', 'Success, last 24 h', 'Last failure']}>
        {endpoints.data?.data.map((e) => {
          const h = byEndpoint.get(e.id);
          return (
            <tr key={e.id}>
              <td>
                <Link to="/webhooks/endpoints/$endpointId" params={{ endpointId: String(e.id) }}>
                  {e.name}
                </Link>
                <div className="muted mono">{e.url}</div>
              </td>
              <td className="mono">{e.event_types.join(', ')}</td>
              <td>
                {e.enabled ? <span className="badge badge-ok">Enabled</span> : <span className="badge badge-bad">Disabled</span>}
                {e.disabled_reason ? <div className="muted">{e.disabled_reason}</div> : null}
              </td>
              <td>
                {h && h.success_rate !== null ? `${h.success_rate}% of ${h.attempts}` : 'no attempts'}
                {h && h.pending > 0 ? <div className="muted">{h.pending} waiting</div> : null}
              </td>
              <td title={formatDateTime(h?.last_failure_at)}>
                {h?.last_failure_at
                  ? `${formatRelative(h.last_failure_at)}: ${h.last_failure_error}${h.last_failure_status ? ` (${h.last_failure_status})` : ''}`
                  : '—'}
              </td>
            </tr>
          );
        })}
        {endpoints.data && endpoints.data.data.length === 0 ? (
          <EmptyRow columns={5}>No endpoints yet. Add one to receive events as they happen.</EmptyRow>
        ) : null}
      </DataTable>
      {manage ? <EndpointFormDialog isOpen={adding} onOpenChange={setAdding} /> : null}
    </Page>
  );
}
