import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { ActivityList } from '../../components/activity-list';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { UserFilter } from '../../components/user-filter';
import { OrgPicker } from '../../components/org-picker';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { FilterForm } from '../../components/filter-form';
import { api, unwrap } from '../../lib/api';
import { compact } from '../../lib/url-search';
import type { ActivitySearch } from './activity-search';

const route = getRouteApi('/signed-in/activity');

/** A numeric id typed by hand (deal or ticket), applied on Enter or when leaving the field. */
function IdFilter({ label, value, onChange }: { label: string; value: number | undefined; onChange: (id: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const apply = () => {
    const n = Number(text);
    onChange(text.trim() !== '' && Number.isSafeInteger(n) && n > 0 ? n : undefined);
  };
  return (
    <TextField
      label={label}
      inputMode="numeric"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
        }
      }}
    />
  );
}

/** The unified feed of deal timeline entries and ticket logs, with every filter of GET /activity. */
export function ActivityFeedPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const feed = useQuery({
    queryKey: ['activity', 'feed', search],
    queryFn: () => unwrap(api.GET('/api/v1/activity', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<ActivitySearch>) =>
    void navigate({ search: (prev) => compact({ ...prev, ...next, page: 'page' in next ? next.page : undefined }) });
  return (
    <Page title="Activity">
      <FilterForm label="Filter activity">
        <SelectField label="Source" value={search.source ?? 'all'} onChange={(e) => change({ source: e.target.value as ActivitySearch['source'] })}>
          <option value="all">Deals and tickets</option>
          <option value="timeline">Deal timelines</option>
          <option value="support_log">Ticket logs</option>
        </SelectField>
        <UserFilter label="Team member" value={search.user_id} onChange={(user_id) => change({ user_id })} />
        <OrgPicker value={search.org_id} onChange={(org_id) => change({ org_id })} />
        <IdFilter key={`d${search.deal_id ?? ''}`} label="Deal id" value={search.deal_id} onChange={(deal_id) => change({ deal_id })} />
        <IdFilter key={`t${search.ticket_id ?? ''}`} label="Ticket id" value={search.ticket_id} onChange={(ticket_id) => change({ ticket_id })} />
        <TextField label="From" type="date" value={search.from ?? ''} onChange={(e) => change({ from: e.target.value || undefined })} />
        <TextField label="To" type="date" value={search.to ?? ''} onChange={(e) => change({ to: e.target.value || undefined })} />
        <Button onClick={() => void navigate({ search: {} })}>Clear filters</Button>
      </FilterForm>
      <p className="muted">The feed holds the newest 500 entries of each source that match.</p>
      {feed.isPending ? <Loading label="Loading activity…" /> : null}
      {feed.isError ? <ErrorState error={feed.error} onRetry={() => void feed.refetch()} /> : null}
      {feed.data && feed.data.data.length === 0 ? <Empty>No activity matches these filters.</Empty> : null}
      {feed.data && feed.data.data.length > 0 ? (
        <>
          <ActivityList items={feed.data.data} label="Activity feed" />
          <Pager pagination={feed.data.pagination} onPage={(page) => change({ page })} />
        </>
      ) : null}
    </Page>
  );
}
