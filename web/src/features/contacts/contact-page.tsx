import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Fact } from '../../components/facts';
import { Page } from '../../components/page';
import { Preview } from '../../components/preview';
import { DealLinks, TicketLinks } from '../../components/record-links';
import { RecordPageState } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { contactName, formatDateTime } from '../../lib/format';
import { contactQuery, orgQuery } from '../../lib/lookups';
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
    <Page title={contactName(c)}>
      <dl className="facts">
        <Fact label="Organization">
          <Link to="/orgs/$orgId" params={{ orgId: String(c.org_id) }}>
            {org.data?.name ?? `Organization ${c.org_id}`}
          </Link>
        </Fact>
        <Fact label="E-mail">{c.email ?? '—'}</Fact>
        <Fact label="Phone">{c.phone ?? '—'}</Fact>
        <Fact label="Title">{c.title ?? '—'}</Fact>
        <Fact label="Created">{formatDateTime(c.created_at)}</Fact>
      </dl>
      <div className="grid-2">
        <Preview title="Deals" of="this contact" query={deals} all={{ to: '/deals', search: { contact_id: id } }}>
          {(items) => <DealLinks deals={items} />}
        </Preview>
        <Preview title="Tickets" of="this contact" query={tickets}>
          {(items) => <TicketLinks tickets={items} />}
        </Preview>
        <section aria-labelledby="contact-audiences" className="panel">
          <h2 id="contact-audiences">Marketing audiences</h2>
          <Audiences contactId={c.id} />
        </section>
      </div>
    </Page>
  );
}
