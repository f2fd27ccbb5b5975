import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ActivityList } from '../../components/activity-list';
import { Fact } from '../../components/facts';
import { Page } from '../../components/page';
import { Preview } from '../../components/preview';
import { ContactLinks, DealLinks, TicketLinks } from '../../components/record-links';
import { RecordPageState } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { orgQuery, useUserName } from '../../lib/lookups';
import { ExternalIds } from './external-ids';

const route = getRouteApi('/signed-in/orgs/$orgId');
const PREVIEW = 10;

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
        <Fact label="Domain">{o.domain ?? '—'}</Fact>
        <Fact label="Created">{formatDateTime(o.created_at)}</Fact>
        <Fact label="Updated">{formatDateTime(o.updated_at)}</Fact>
      </dl>
      <section aria-labelledby="external-ids" className="panel">
        <h2 id="external-ids">External ids</h2>
        <ExternalIds org={o} />
      </section>
      <div className="grid-2">
        <Preview title="Contacts" of={o.name} query={contacts} all={{ to: '/contacts', search: { org_id: id } }}>
          {(items) => <ContactLinks contacts={items} />}
        </Preview>
        <Preview title="Deals" of={o.name} query={deals} all={{ to: '/deals', search: { org_id: id } }}>
          {(items) => <DealLinks deals={items} userName={userName} />}
        </Preview>
        <Preview title="Tickets" of={o.name} query={tickets} all={{ to: '/tickets', search: { view: 'all', org_id: id } }}>
          {(items) => <TicketLinks tickets={items} />}
        </Preview>
        <Preview title="Activity" of={o.name} query={activity} all={{ to: '/activity', search: { org_id: id } }}>
          {(items) => <ActivityList items={items} label={`Activity of ${o.name}`} />}
        </Preview>
      </div>
    </Page>
  );
}
