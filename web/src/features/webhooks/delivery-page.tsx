import { Link, useParams } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { DataTable, EmptyRow } from '../../components/data-table';
import { Page } from '../../components/page';
import { formatDateTime } from '../../lib/format';
import { canManage, useSession } from '../../lib/session';
import { useDelivery, useRetry } from './api';
import { DeliveryStatus } from './status';

/** One delivery: the exact payload, the headers sent (signatures masked), every attempt, and Retry. */
export function DeliveryPage() {
  const id = Number(useParams({ from: '/signed-in/webhooks/deliveries/$deliveryId' }).deliveryId);
  const manage = canManage(useSession().user.role);
  const delivery = useDelivery(id);
  const retry = useRetry();
  if (delivery.error) return <Alert>{delivery.error.message}</Alert>;
  const d = delivery.data;
  if (!d) return <p>Loading…</p>;
  return (
    <Page
      title={`Delivery #${d.id}`}
      actions={
        manage ? (
          <Button variant="primary" onClick={() => retry.mutate(d.id)} disabled={retry.isPending || d.status === 'pending'}>
            Retry
          </Button>
        ) : null
      }
    >
      {retry.error ? <Alert>{retry.error.message}</Alert> : null}
      <dl className="kv card">
        <dt>Status</dt>
        <dd>
          <DeliveryStatus delivery={d} />
          {d.test ? <span className="badge badge-neutral"> test send</span> : null}
        </dd>
        <dt>Event</dt>
        <dd className="mono">
          {d.event_type} · {d.event_id}
        </dd>
        <dt>Endpoint</dt>
        <dd>
          <Link to="/webhooks/endpoints/$endpointId" params={{ endpointId: String(d.endpoint_id) }}>
            Endpoint #{d.endpoint_id}
          </Link>
        </dd>
        <dt>Attempts</dt>
        <dd>{d.attempts}</dd>
        <dt>Next attempt</dt>
        <dd>{d.next_attempt_at ? formatDateTime(d.next_attempt_at) : 'none scheduled'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(d.created_at)}</dd>
      </dl>

      <h2>Attempts</h2>
      <DataTable caption="Every attempt, oldest first" columns={['#', 'Trigger', 'Status code', 'Error', 'Duration', 'Requested', 'Response body']}>
        {d.attempts_log.map((a) => (
          <tr key={a.id}>
            <td>{a.attempt_number}</td>
            <td>{a.trigger}</td>
            <td>{a.status_code === 0 ? 'no response' : a.status_code}</td>
            <td>{a.error ?? '—'}</td>
            <td>{a.duration_ms} ms</td>
            <td>{formatDateTime(a.requested_at)}</td>
            <td>
              {a.response_body ? (
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must take focus so the keyboard can scroll it (axe scrollable-region-focusable)
                <pre className="response-body" tabIndex={0}>
                  {a.response_body}
                </pre>
              ) : (
                <span className="muted">empty</span>
              )}
            </td>
          </tr>
        ))}
        {d.attempts_log.length === 0 ? <EmptyRow columns={7}>No attempt yet; this page refreshes until the first one.</EmptyRow> : null}
      </DataTable>

      <h2>Payload</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must take focus so the keyboard can scroll it (axe scrollable-region-focusable) */}
      <pre tabIndex={0}>{JSON.stringify(d.payload, null, 2)}</pre>

      <h2>Headers sent</h2>
      <p className="muted">Signatures are masked. The timestamp is that of the latest attempt.</p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Request headers</caption>
          <tbody>
            {Object.entries(d.request_headers).map(([k, v]) => (
              <tr key={k}>
                <th scope="row" className="mono">
                  {k}
                </th>
                <td className="mono">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}
