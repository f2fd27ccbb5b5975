import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useUserName } from '../../lib/lookups';
import { formatMoney } from '../../lib/money';
import { STATUS_LABEL } from '../../lib/schemas';
import { compact } from '../../lib/url-search';
import { DealsFilters } from './deals-filters';
import type { DealsSearch } from './deals-search';

const route = getRouteApi('/signed-in/deals/');

type SortField = NonNullable<DealsSearch['sort']>;

/** A sortable column header: a button that flips the direction, with aria-sort for screen readers. */
function SortHeader({ field, label, search, onSort }: { field: SortField; label: string; search: DealsSearch; onSort: (f: SortField) => void }) {
  const active = (search.sort ?? 'created_at') === field;
  const direction = search.direction ?? 'desc';
  return (
    <th scope="col" aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort" onClick={() => onSort(field)}>
        {label} {active ? (direction === 'asc' ? '▲' : '▼') : ''}
      </button>
    </th>
  );
}

/** Every deal, with every filter and sort of GET /deals in the URL (shareable; back and reload restore it). */
export function DealsTablePage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const userName = useUserName();
  const deals = useQuery({
    queryKey: ['deals', 'table', search],
    queryFn: () => unwrap(api.GET('/api/v1/deals', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<DealsSearch>) =>
    void navigate({ search: (prev) => compact({ ...prev, ...next, page: 'page' in next ? next.page : undefined }) });
  const sortBy = (field: SortField) => {
    const same = (search.sort ?? 'created_at') === field;
    change({ sort: field, direction: same && (search.direction ?? 'desc') === 'desc' ? 'asc' : 'desc' });
  };
  return (
    <Page title="Deals">
      <DealsFilters key={search.q ?? ''} search={search} onChange={change} />
      {deals.isPending ? <Loading label="Loading deals…" /> : null}
      {deals.isError ? <ErrorState error={deals.error} onRetry={() => void deals.refetch()} /> : null}
      {deals.data ? (
        deals.data.data.length === 0 ? (
          <Empty>No deal matches these filters.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table" aria-busy={deals.isFetching || undefined}>
                <caption className="visually-hidden">
                  Deals, sorted by {search.sort ?? 'created_at'} {search.direction ?? 'desc'}
                </caption>
                <thead>
                  <tr>
                    <SortHeader field="title" label="Title" search={search} onSort={sortBy} />
                    <SortHeader field="status" label="Status" search={search} onSort={sortBy} />
                    <th scope="col">Value</th>
                    <th scope="col">Owner</th>
                    <th scope="col">Next follow-up</th>
                    <SortHeader field="created_at" label="Created" search={search} onSort={sortBy} />
                    <SortHeader field="updated_at" label="Updated" search={search} onSort={sortBy} />
                    <SortHeader field="id" label="ID" search={search} onSort={sortBy} />
                  </tr>
                </thead>
                <tbody>
                  {deals.data.data.map((d) => (
                    <tr key={d.id}>
                      <td>
                        <Link to="/deals/$dealId" params={{ dealId: String(d.id) }}>
                          {d.title}
                        </Link>
                      </td>
                      <td>
                        <span className={`status status-${d.status}`}>{STATUS_LABEL[d.status]}</span>
                      </td>
                      <td className="num">{formatMoney(d.value, d.currency)}</td>
                      <td>{userName(d.owner_user_id)}</td>
                      <td>{formatDateTime(d.next_followup_at)}</td>
                      <td>{formatDateTime(d.created_at)}</td>
                      <td>{formatDateTime(d.updated_at)}</td>
                      <td className="num">{d.id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager pagination={deals.data.pagination} onPage={(page) => change({ page })} />
          </>
        )
      ) : null}
    </Page>
  );
}
