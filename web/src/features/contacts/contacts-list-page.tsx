import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { OrgPicker } from '../../components/org-picker';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { FilterForm } from '../../components/filter-form';
import { api, unwrap } from '../../lib/api';
import { compact } from '../../lib/url-search';

const route = getRouteApi('/signed-in/contacts/');

/** Contacts, searchable by name or e-mail and by organization (GET /contacts). */
export function ContactsListPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [q, setQ] = useState(search.q ?? '');
  const contacts = useQuery({
    queryKey: ['contacts', 'list', search],
    queryFn: () => unwrap(api.GET('/api/v1/contacts', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });
  const change = (next: Record<string, unknown>) =>
    void navigate({ search: (prev) => compact({ ...prev, ...next, page: 'page' in next ? (next.page as number) : undefined }) });
  return (
    <Page title="Contacts">
      <FilterForm label="Search contacts" onSubmit={() => change({ q: q.trim() || undefined })}>
        <TextField label="Name or e-mail contains" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button type="submit">Search</Button>
        <OrgPicker value={search.org_id} onChange={(org_id) => change({ org_id })} />
      </FilterForm>
      {contacts.isPending ? <Loading label="Loading contacts…" /> : null}
      {contacts.isError ? <ErrorState error={contacts.error} onRetry={() => void contacts.refetch()} /> : null}
      {contacts.data && contacts.data.data.length === 0 ? <Empty>No contact matches.</Empty> : null}
      {contacts.data && contacts.data.data.length > 0 ? (
        <>
          <DataTable caption="Contacts" columns={['Name', 'E-mail', 'Phone', 'Title', 'Organization']} className="table">
            {contacts.data.data.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to="/contacts/$contactId" params={{ contactId: String(c.id) }}>
                    {c.name ?? `Contact ${c.id}`}
                  </Link>
                </td>
                <td>{c.email ?? '—'}</td>
                <td>{c.phone ?? '—'}</td>
                <td>{c.title ?? '—'}</td>
                <td>
                  <Link to="/orgs/$orgId" params={{ orgId: String(c.org_id) }}>
                    Organization #{c.org_id}
                  </Link>
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager pagination={contacts.data.pagination} onPage={(page) => change({ page })} />
        </>
      ) : null}
    </Page>
  );
}
