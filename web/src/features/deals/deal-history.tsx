import { useQuery } from '@tanstack/react-query';
import { Empty, ErrorState, Loading } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useUserName } from '../../lib/lookups';
import { STATUS_LABEL } from '../../lib/schemas';

/** Every recorded status change of the deal, newest first (GET /deals/{id}/status-history). */
export function DealHistory({ dealId }: { dealId: number }) {
  const userName = useUserName();
  const history = useQuery({
    queryKey: ['deal', dealId, 'history'],
    queryFn: () => unwrap(api.GET('/api/v1/deals/{id}/status-history', { params: { path: { id: dealId }, query: { per_page: 100 } } })),
  });
  if (history.isPending) return <Loading label="Loading the status history…" />;
  if (history.isError) return <ErrorState error={history.error} thing="deal" onRetry={() => void history.refetch()} />;
  if (history.data.data.length === 0) return <Empty>No status change recorded.</Empty>;
  return (
    <ol className="history" aria-label="Status history">
      {history.data.data.map((h) => (
        <li key={h.id}>
          <span className="history-move">
            {h.from_status === null ? `Created as ${STATUS_LABEL[h.to_status]}` : `${STATUS_LABEL[h.from_status]} → ${STATUS_LABEL[h.to_status]}`}
          </span>{' '}
          <span className="muted">
            {formatDateTime(h.changed_at)} · {h.changed_by_user_id === null ? 'through the API' : `by ${userName(h.changed_by_user_id)}`}
          </span>
        </li>
      ))}
    </ol>
  );
}
