import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Options, SelectField } from '../../components/field';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, FormError, Loading, fieldError } from '../../components/states';
import { TextAreaField } from '../../components/textarea-field';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useUserName } from '../../lib/lookups';

const KINDS = ['note', 'email', 'call', 'meeting'] as const;
const KIND_LABEL: Record<(typeof KINDS)[number], string> = { note: 'Note', email: 'Email', call: 'Call', meeting: 'Meeting' };
const OUTCOMES = ['success', 'failed', 'skipped'] as const;
type Outcome = (typeof OUTCOMES)[number];
const OUTCOME_LABEL: Record<Outcome, string> = { success: 'Success', failed: 'Failed', skipped: 'Skipped' };

/** Logs a note, email, call or meeting (POST /deals/{id}/activities): attributed to the signed-in user by the server. */
function LogActivityForm({ dealId }: { dealId: number }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<(typeof KINDS)[number]>('note');
  const [outcome, setOutcome] = useState<'' | Outcome>('');
  const [message, setMessage] = useState('');
  const [missing, setMissing] = useState(false);
  const log = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/deals/{id}/activities', {
          params: { path: { id: dealId } },
          body: { source_app: 'console', activity_kind: kind, message, ...(outcome ? { outcome } : {}) },
        }),
      ),
    onSuccess: () => {
      setMessage('');
      setOutcome('');
      void queryClient.invalidateQueries({ queryKey: ['deal', dealId] });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
      void queryClient.invalidateQueries({ queryKey: ['deals'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(message.trim() === '');
    if (message.trim() !== '') log.mutate();
  };
  return (
    <form onSubmit={submit} className="log-form" aria-label="Log an activity" noValidate>
      <SelectField label="Kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} error={fieldError(log.error, 'activity_kind')}>
        <Options values={KINDS} labels={KIND_LABEL} />
      </SelectField>
      <SelectField label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)} error={fieldError(log.error, 'outcome')}>
        <Options values={OUTCOMES} labels={OUTCOME_LABEL} none="None" />
      </SelectField>
      <TextAreaField
        label="Message"
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        maxLength={10000}
        error={missing ? 'Required.' : fieldError(log.error, 'message')}
      />
      <FormError error={log.error} />
      {log.isSuccess ? <Alert tone="success">Logged.</Alert> : null}
      <Button type="submit" variant="primary" disabled={log.isPending}>
        {log.isPending ? 'Logging…' : 'Log activity'}
      </Button>
    </form>
  );
}

/** The deal's timeline, newest first, a page at a time, with the form to log a new entry. */
export function DealTimeline({ dealId }: { dealId: number }) {
  const userName = useUserName();
  const [page, setPage] = useState(1);
  const activities = useQuery({
    queryKey: ['deal', dealId, 'activities', page],
    queryFn: () => unwrap(api.GET('/api/v1/deals/{id}/activities', { params: { path: { id: dealId }, query: { page, per_page: 20 } } })),
  });
  return (
    <div className="timeline">
      <LogActivityForm dealId={dealId} />
      {activities.isPending ? <Loading label="Loading the timeline…" /> : null}
      {activities.isError ? <ErrorState error={activities.error} thing="deal" onRetry={() => void activities.refetch()} /> : null}
      {activities.data && activities.data.data.length === 0 ? <Empty>Nothing logged yet.</Empty> : null}
      {activities.data && activities.data.data.length > 0 ? (
        <>
          <ol className="entries" aria-label="Timeline">
            {activities.data.data.map((a) => (
              <li key={a.id} className="entry">
                <p className="entry-head">
                  <strong>{KIND_LABEL[a.event_type]}</strong>
                  {a.outcome ? <span className="badge"> {a.outcome}</span> : null}{' '}
                  <span className="muted">
                    {formatDateTime(a.created_at)} · {a.user_id === null ? `via ${a.source_app ?? 'the API'}` : userName(a.user_id)}
                  </span>
                </p>
                <p className="entry-body">{a.message}</p>
              </li>
            ))}
          </ol>
          <Pager pagination={activities.data.pagination} onPage={setPage} />
        </>
      ) : null}
    </div>
  );
}
