import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ActivityList } from '../../components/activity-list';
import { Page } from '../../components/page';
import { Empty, ErrorState, Loading, RecordPageState } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { orgQuery, useUserName } from '../../lib/lookups';
import { formatMoney } from '../../lib/money';
import { STATUS_LABEL, TICKET_STATUS_LABEL } from '../../lib/schemas';
import { ExternalIds } from './external-ids';

const route = getRouteApi('/signed-in/orgs/$orgId');
const PREVIEW = 10;

/** A section showing the first records of a list, with a link to all of them. */
function Preview<T>({
  title,
  query,
  empty,
  all,
  render,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data?: { data: T[]; pagination: { total: number } }; refetch: () => unknown };
  empty: string;
  all?: ReactNode;
  render: (items: T[]) => ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>
        {title} {query.data ? <span className="count">{query.data.pagination.total.toLocaleString()}</span> : null}
      </h2>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? query.data.data.length === 0 ? <Empty>{empty}</Empty> : render(query.data.data) : null}
      {query.data && query.data.pagination.total > PREVIEW ? all : null}
    </section>
  );
}

/** One organization: facts, external ids, and its contacts, deals, tickets and activity. */
export function OrgPage() {
  const { orgId } = route.useParams();
  const id = Number(orgId);
  const userName = useUserName();
  const org = useQuery(orgQuery(id));
  const contacts = useQuery({
    queryKey: ['contacts', 'of-org', id, 'preview'],
    queryFn: () => unwrap(api.GET('/api/v1/contacts', { params: { query: { org_id: id, per_page: PREVIEW } } })),
    enabled: org.isSuccess,
  });
  const deals = useQuery({
    queryKey: ['deals', 'of-org', id],
    queryFn: () => unwrap(api.GET('/api/v1/deals', { params: { query: { org_id: id, per_page: PREVIEW } } })),
    enabled: org.isSuccess,
  });
  const tickets = useQuery({
    queryKey: ['tickets', 'of-org', id],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets', { params: { query: { org_id: id, per_page: PREVIEW } } })),
    enabled: org.isSuccess,
  });
  const activity = useQuery({
    queryKey: ['activity', 'of-org', id],
    queryFn: () => unwrap(api.GET('/api/v1/activity', { params: { query: { org_id: id, per_page: PREVIEW } } })),
    enabled: org.isSuccess,
  });
  if (!org.isSuccess) return <RecordPageState query={org} thing="organization" title="Organization" />;
  const o = org.data;
  return (
    <Page title={o.name}>
      <dl className="facts">
        <div>
          <dt>Domain</dt>
          <dd>{o.domain ?? '—'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(o.created_at)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatDateTime(o.updated_at)}</dd>
        </div>
      </dl>
      <section aria-labelledby="external-ids" className="panel">
        <h2 id="external-ids">External ids</h2>
        <ExternalIds org={o} />
      </section>
      <div className="grid-2">
        <Preview
          title="Contacts"
          query={contacts}
          empty="No contacts."
          all={
            <Link to="/contacts" search={{ org_id: id }}>
              All contacts of {o.name}
            </Link>
          }
          render={(items) => (
            <ul className="plain-list">
              {items.map((c) => (
                <li key={c.id}>
                  <Link to="/contacts/$contactId" params={{ contactId: String(c.id) }}>
                    {c.name ?? c.email ?? `Contact ${c.id}`}
                  </Link>
                  {c.email && c.name ? <span className="muted"> · {c.email}</span> : null}
                </li>
              ))}
            </ul>
          )}
        />
        <Preview
          title="Deals"
          query={deals}
          empty="No deals."
          all={
            <Link to="/deals" search={{ org_id: id }}>
              All deals of {o.name}
            </Link>
          }
          render={(items) => (
            <ul className="plain-list">
              {items.map((d) => (
                <li key={d.id}>
                  <Link to="/deals/$dealId" params={{ dealId: String(d.id) }}>
                    {d.title}
                  </Link>{' '}
                  <span className="muted">
                    · {STATUS_LABEL[d.status]} · {formatMoney(d.value, d.currency)} · {userName(d.owner_user_id)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        />
        <Preview
          title="Tickets"
          query={tickets}
          empty="No tickets."
          all={
            <Link to="/tickets" search={{ view: 'all', org_id: id }}>
              All tickets of {o.name}
            </Link>
          }
          render={(items) => (
            <ul className="plain-list">
              {items.map((t) => (
                <li key={t.id}>
                  <Link to="/tickets/$ticketId" params={{ ticketId: String(t.id) }}>
                    {t.title}
                  </Link>{' '}
                  <span className="muted">· {TICKET_STATUS_LABEL[t.status]}</span>
                </li>
              ))}
            </ul>
          )}
        />
        <Preview
          title="Activity"
          query={activity}
          empty="No activity."
          all={
            <Link to="/activity" search={{ org_id: id }}>
              All activity of {o.name}
            </Link>
          }
          render={(items) => <ActivityList items={items} label={`Activity of ${o.name}`} />}
        />
      </div>
    </Page>
  );
}
