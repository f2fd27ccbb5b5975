import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { FilterForm } from '../../components/filter-form';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { compact } from '../../lib/url-search';

const route = getRouteApi('/signed-in/orgs/');

/** Customer organizations, searchable by name or domain (GET /orgs?q=…). */
export function OrgsListPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [q, setQ] = useState(search.q ?? '');
  const orgs = useQuery({
    queryKey: ['orgs', 'list', search],
    queryFn: () => unwrap(api.GET('/api/v1/orgs', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Organizations">
      <FilterForm label="Search organizations" onSubmit={() => void navigate({ search: compact({ q: q.trim() || undefined }) })}>
        <TextField label="Name or domain contains" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button type="submit">Search</Button>
      </FilterForm>
      {orgs.isPending ? <Loading label="Loading organizations…" /> : null}
      {orgs.isError ? <ErrorState error={orgs.error} onRetry={() => void orgs.refetch()} /> : null}
      {orgs.data && orgs.data.data.length === 0 ? (
        <Empty>
          {search.q ? `No organization matches “${search.q}”.` : 'No organization yet: they appear when an integration resolves one or creates it.'}
        </Empty>
      ) : null}
      {orgs.data && orgs.data.data.length > 0 ? (
        <>
          <DataTable caption="Organizations" columns={['Name', 'Domain', 'External ids', 'Created']} className="table">
            {orgs.data.data.map((o) => (
              <tr key={o.id}>
                <td>
                  <Link to="/orgs/$orgId" params={{ orgId: String(o.id) }}>
                    {o.name}
                  </Link>
                </td>
                <td>{o.domain ?? '—'}</td>
                <td>{o.external_ids.length === 0 ? '—' : o.external_ids.map((x) => `${x.source_app}: ${x.external_org_id}`).join(', ')}</td>
                <td>{formatDateTime(o.created_at)}</td>
              </tr>
            ))}
          </DataTable>
          <Pager pagination={orgs.data.pagination} onPage={(page) => void navigate({ search: (prev) => ({ ...prev, page }) })} />
        </>
      ) : null}
    </Page>
  );
}
