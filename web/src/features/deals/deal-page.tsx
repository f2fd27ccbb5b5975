import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Fact } from '../../components/facts';
import { Options, SelectField } from '../../components/field';
import { LostReasonDialog } from '../../components/lost-reason-dialog';
import { Page } from '../../components/page';
import { RecordPageState } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { useMoveDeal } from '../../lib/deal-moves';
import { formatDateTime } from '../../lib/format';
import { contactQuery, orgQuery, useUserName } from '../../lib/lookups';
import { formatMoney } from '../../lib/money';
import { DEAL_STATUSES, STATUS_LABEL, type Deal, type DealStatus } from '../../lib/schemas';
import { DealFieldsForm } from './deal-fields-form';
import { DealHistory } from './deal-history';
import { DealTimeline } from './deal-timeline';

const route = getRouteApi('/signed-in/deals/$dealId');

export const dealQuery = (id: number) => ({
  queryKey: ['deal', id],
  queryFn: () => unwrap(api.GET('/api/v1/deals/{id}', { params: { path: { id } } })),
  // Another person (or an integration) may change the deal meanwhile: look again now and then,
  // and when the tab comes back into view.
  refetchInterval: 20_000,
  refetchOnWindowFocus: true,
});

/** Moves the deal to another status; lost asks for a reason first. */
function StatusControl({ deal }: { deal: Deal }) {
  const move = useMoveDeal();
  const [to, setTo] = useState<DealStatus>(deal.status);
  const [losing, setLosing] = useState(false);
  return (
    <div className="status-control">
      <SelectField label="Status" value={to} onChange={(e) => setTo(e.target.value as DealStatus)}>
        <Options values={DEAL_STATUSES} labels={STATUS_LABEL} />
      </SelectField>
      <Button
        variant="primary"
        disabled={to === deal.status || move.isPending}
        onClick={() => {
          if (to !== 'lost') return move.mutate({ deal, to });
          move.reset();
          setLosing(true);
        }}
      >
        Change status
      </Button>
      {move.isError && !losing ? <Alert>Could not change the status: {move.error.message}</Alert> : null}
      <LostReasonDialog
        dealTitle={deal.title}
        isOpen={losing}
        onCancel={() => setLosing(false)}
        pending={move.isPending}
        error={losing ? move.error : null}
        onSubmit={(lostReason) => move.mutate({ deal, to: 'lost', lostReason }, { onSuccess: () => setLosing(false) })}
      />
    </div>
  );
}

function Related({ deal }: { deal: Deal }) {
  const org = useQuery(orgQuery(deal.org_id));
  const contact = useQuery({ ...contactQuery(deal.contact_id ?? 0), enabled: deal.contact_id !== null });
  return (
    <p className="related">
      Organization:{' '}
      <Link to="/orgs/$orgId" params={{ orgId: String(deal.org_id) }}>
        {org.data?.name ?? `Organization ${deal.org_id}`}
      </Link>
      {deal.contact_id !== null ? (
        <>
          {' · '}Contact:{' '}
          <Link to="/contacts/$contactId" params={{ contactId: String(deal.contact_id) }}>
            {contact.data?.name ?? contact.data?.email ?? `Contact ${deal.contact_id}`}
          </Link>
        </>
      ) : null}
    </p>
  );
}

/** One deal: its facts, editable fields, status, status history and timeline. */
export function DealPage() {
  const { dealId } = route.useParams();
  const id = Number(dealId);
  const userName = useUserName();
  const deal = useQuery({ ...dealQuery(id), enabled: Number.isSafeInteger(id) && id > 0 });
  if (!deal.isSuccess) return <RecordPageState query={deal} thing="deal" title="Deal" />;
  const d = deal.data;
  return (
    <Page title={d.title}>
      <Related deal={d} />
      <dl className="facts">
        <Fact label="Status">
          <span className={`status status-${d.status}`}>{STATUS_LABEL[d.status]}</span>
        </Fact>
        <Fact label="Value">{formatMoney(d.value, d.currency)}</Fact>
        <Fact label="Owner">{userName(d.owner_user_id)}</Fact>
        {d.lost_reason ? (
          <Fact label="Lost reason">
            {d.lost_reason.label} ({d.lost_reason.code})
          </Fact>
        ) : null}
        {d.closed_at ? (
          <Fact label="Closed">
            {formatDateTime(d.closed_at)}
            {d.closed_by_user_id !== null ? ` by ${userName(d.closed_by_user_id)}` : ''}
          </Fact>
        ) : null}
        <Fact label="Last activity">{formatDateTime(d.last_activity_at)}</Fact>
        <Fact label="Created">{formatDateTime(d.created_at)}</Fact>
      </dl>
      <div className="columns">
        <section aria-labelledby="deal-fields">
          <h2 id="deal-fields">Fields</h2>
          <StatusControl key={`${d.id}-${d.status}`} deal={d} />
          <DealFieldsForm key={d.id} deal={d} />
          <h2>Status history</h2>
          <DealHistory dealId={d.id} />
        </section>
        <section aria-labelledby="deal-timeline">
          <h2 id="deal-timeline">Timeline</h2>
          <DealTimeline dealId={d.id} />
        </section>
      </div>
    </Page>
  );
}
