import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Options, SelectField, TextField } from '../../components/field';
import { UserFilter } from '../../components/user-filter';
import { OrgPicker } from '../../components/org-picker';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { FilterForm } from '../../components/filter-form';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useUserName } from '../../lib/lookups';
import { TICKET_STATUS_LABEL } from '../../lib/schemas';
import { useSession } from '../../lib/session';
import { compact } from '../../lib/url-search';
import { NewTicketDialog } from './new-ticket-dialog';
import { TICKET_SORTS, TICKET_VIEWS, ticketsQuery, type TicketsSearch } from './tickets-search';

const route = getRouteApi('/signed-in/tickets/');
const VIEW_LABEL = { open: 'Open', pending: 'Pending', closed: 'Closed', mine: 'Mine', all: 'All' } as const;
const SORT_LABEL = { created_at: 'Created', updated_at: 'Updated', id: 'ID', title: 'Title', status: 'Status' } as const;

/** Ticket views (open, pending, closed, mine) with the filters and sorts of GET /support/tickets in the URL. */
export function TicketsListPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const session = useSession();
  const userName = useUserName();
  const [creating, setCreating] = useState(false);
  const [q, setQ] = useState(search.q ?? '');
  const view = search.view ?? 'open';
  const tickets = useQuery({
    queryKey: ['tickets', 'list', search, session.user.id],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets', { params: { query: ticketsQuery(search, session.user.id) } })),
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<TicketsSearch>) =>
    void navigate({ search: (prev) => compact({ ...prev, ...next, page: 'page' in next ? next.page : undefined }) });
  return (
    <Page
      title="Tickets"
      actions={
        <Button variant="primary" onClick={() => setCreating(true)}>
          New ticket
        </Button>
      }
    >
      <nav aria-label="Ticket views" className="tabs">
        <ul>
          {TICKET_VIEWS.map((v) => (
            <li key={v}>
              <Link
                to="/tickets"
                search={compact({ ...search, view: v, page: undefined })}
                aria-current={view === v ? 'page' : undefined}
                className={view === v ? 'active' : undefined}
              >
                {VIEW_LABEL[v]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <FilterForm label="Filter tickets" onSubmit={() => change({ q: q.trim() || undefined })}>
        <TextField label="Title contains" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button type="submit">Search</Button>
        <OrgPicker value={search.org_id} onChange={(org_id) => change({ org_id })} />
        {view !== 'mine' ? <UserFilter value={search.owner_user_id} onChange={(owner_user_id) => change({ owner_user_id })} /> : null}
        <TextField label="Created from" type="date" value={search.created_from ?? ''} onChange={(e) => change({ created_from: e.target.value || undefined })} />
        <TextField label="Created to" type="date" value={search.created_to ?? ''} onChange={(e) => change({ created_to: e.target.value || undefined })} />
        <SelectField label="Sort by" value={search.sort ?? 'created_at'} onChange={(e) => change({ sort: e.target.value as TicketsSearch['sort'] })}>
          <Options values={TICKET_SORTS} labels={SORT_LABEL} />
        </SelectField>
        <SelectField label="Direction" value={search.direction ?? 'desc'} onChange={(e) => change({ direction: e.target.value as 'asc' | 'desc' })}>
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </SelectField>
      </FilterForm>
      {tickets.isPending ? <Loading label="Loading tickets…" /> : null}
      {tickets.isError ? <ErrorState error={tickets.error} onRetry={() => void tickets.refetch()} /> : null}
      {tickets.data && tickets.data.data.length === 0 ? (
        <Empty>
          No ticket in this view{search.q || search.org_id || search.owner_user_id || search.created_from || search.created_to ? ' with these filters' : ''}.
        </Empty>
      ) : null}
      {tickets.data && tickets.data.data.length > 0 ? (
        <>
          <DataTable caption={`${VIEW_LABEL[view]} tickets`} columns={['Title', 'Status', 'Owner', 'Channel', 'Created', 'Updated']} className="table">
            {tickets.data.data.map((t) => (
              <tr key={t.id}>
                <td>
                  <Link to="/tickets/$ticketId" params={{ ticketId: String(t.id) }}>
                    {t.title}
                  </Link>
                </td>
                <td>
                  <span className={`status status-${t.status}`}>{TICKET_STATUS_LABEL[t.status]}</span>
                </td>
                <td>{userName(t.owner_user_id)}</td>
                <td>{t.channel}</td>
                <td>{formatDateTime(t.created_at)}</td>
                <td>{formatDateTime(t.updated_at)}</td>
              </tr>
            ))}
          </DataTable>
          <Pager pagination={tickets.data.pagination} onPage={(page) => change({ page })} />
        </>
      ) : null}
      {creating ? <NewTicketDialog isOpen onClose={() => setCreating(false)} initialOrg={search.org_id} /> : null}
    </Page>
  );
}
