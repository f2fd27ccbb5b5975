import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Page } from '../../components/page';
import { Empty, ErrorState, Loading, RecordPageState } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { contactQuery, orgQuery } from '../../lib/lookups';
import { formatMoney } from '../../lib/money';
import { STATUS_LABEL, TICKET_STATUS_LABEL } from '../../lib/schemas';
import { Audiences } from './audiences';

const route = getRouteApi('/signed-in/contacts/$contactId');

/** One contact: facts, organization, deals and tickets (filtered by contact_id), marketing audiences. */
export function ContactPage() {
  const { contactId } = route.useParams();
  const id = Number(contactId);
  const contact = useQuery(contactQuery(id));
  const org = useQuery({ ...orgQuery(contact.data?.org_id ?? 0), enabled: contact.isSuccess });
  const deals = useQuery({
    queryKey: ['deals', 'of-contact', id],
    queryFn: () => unwrap(api.GET('/api/v1/deals', { params: { query: { contact_id: id, per_page: 25 } } })),
    enabled: contact.isSuccess,
  });
  const tickets = useQuery({
    queryKey: ['tickets', 'of-contact', id],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets', { params: { query: { contact_id: id, per_page: 25 } } })),
    enabled: contact.isSuccess,
  });
  if (!contact.isSuccess) return <RecordPageState query={contact} thing="contact" title="Contact" />;
  const c = contact.data;
  return (
    <Page title={c.name ?? c.email ?? `Contact ${c.id}`}>
      <dl className="facts">
        <div>
          <dt>Organization</dt>
          <dd>
            <Link to="/orgs/$orgId" params={{ orgId: String(c.org_id) }}>
              {org.data?.name ?? `Organization ${c.org_id}`}
            </Link>
          </dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{c.email ?? '—'}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{c.phone ?? '—'}</dd>
        </div>
        <div>
          <dt>Title</dt>
          <dd>{c.title ?? '—'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(c.created_at)}</dd>
        </div>
      </dl>
      <div className="grid-2">
        <section aria-labelledby="contact-deals" className="panel">
          <h2 id="contact-deals">Deals {deals.data ? <span className="count">{deals.data.pagination.total}</span> : null}</h2>
          {deals.isPending ? (
            <Loading />
          ) : deals.isError ? (
            <ErrorState error={deals.error} />
          ) : deals.data.data.length === 0 ? (
            <Empty>No deals.</Empty>
          ) : (
            <ul className="plain-list">
              {deals.data.data.map((d) => (
                <li key={d.id}>
                  <Link to="/deals/$dealId" params={{ dealId: String(d.id) }}>
                    {d.title}
                  </Link>{' '}
                  <span className="muted">
                    · {STATUS_LABEL[d.status]} · {formatMoney(d.value, d.currency)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {deals.data?.pagination.has_next ? (
            <Link to="/deals" search={{ contact_id: id }}>
              All deals of this contact
            </Link>
          ) : null}
        </section>
        <section aria-labelledby="contact-tickets" className="panel">
          <h2 id="contact-tickets">Tickets {tickets.data ? <span className="count">{tickets.data.pagination.total}</span> : null}</h2>
          {tickets.isPending ? (
            <Loading />
          ) : tickets.isError ? (
            <ErrorState error={tickets.error} />
          ) : tickets.data.data.length === 0 ? (
            <Empty>No tickets.</Empty>
          ) : (
            <ul className="plain-list">
              {tickets.data.data.map((t) => (
                <li key={t.id}>
                  <Link to="/tickets/$ticketId" params={{ ticketId: String(t.id) }}>
                    {t.title}
                  </Link>{' '}
                  <span className="muted">· {TICKET_STATUS_LABEL[t.status]}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="contact-audiences" className="panel">
          <h2 id="contact-audiences">Marketing audiences</h2>
          <Audiences contactId={c.id} />
        </section>
      </div>
    </Page>
  );
}
