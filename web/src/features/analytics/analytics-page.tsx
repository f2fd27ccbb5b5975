import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Options, SelectField, TextField } from '../../components/field';
import { Page } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { FilterForm } from '../../components/filter-form';
import { compact } from '../../lib/url-search';
import { ActivityMixPanel } from './activity-mix-panel';
import { analyticsQuery, PRESET_LABEL, PRESETS, type AnalyticsSearch } from './analytics-search';
import { CustomersPanel } from './customers-panel';
import { reportQuery } from './report-queries';
import { SalesPanel } from './sales-panel';
import { SupportPanel } from './support-panel';
import { TeamPanel } from './team-panel';
import { TrendsPanel } from './trends-panel';

const route = getRouteApi('/signed-in/analytics');
const utcDay = (iso: string) => iso.slice(0, 10);

/** Preset or custom days, and the compare toggle; every change goes into the URL. */
function RangePicker({ search, onChange }: { search: AnalyticsSearch; onChange: (next: AnalyticsSearch) => void }) {
  const [from, setFrom] = useState(search.from ?? '');
  const [to, setTo] = useState(search.to ?? '');
  const range = search.range ?? 'this_month';
  return (
    <FilterForm label="Analytics period" onSubmit={() => onChange({ ...search, range: 'custom', from: from || undefined, to: to || undefined })}>
      <SelectField
        label="Period"
        value={range}
        onChange={(e) =>
          onChange(
            e.target.value === 'custom'
              ? { ...search, range: 'custom', from: from || undefined, to: to || undefined }
              : { range: e.target.value as AnalyticsSearch['range'], compare: search.compare },
          )
        }
      >
        <Options values={PRESETS} labels={PRESET_LABEL} />
        <option value="custom">Custom dates</option>
      </SelectField>
      {range === 'custom' ? (
        <>
          <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
          <TextField label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          <Button type="submit">Apply dates</Button>
        </>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={search.compare ?? false} onChange={(e) => onChange({ ...search, compare: e.target.checked || undefined })} />
        <span>Compare with the previous period</span>
      </label>
    </FilterForm>
  );
}

/** The six analytics reports as pictures and tables; every number is the API's, as it answered. */
export function AnalyticsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const query = analyticsQuery(search);
  const opts = { placeholderData: keepPreviousData } as const;
  const sales = useQuery({ ...reportQuery('sales', query), ...opts });
  const support = useQuery({ ...reportQuery('support', query), ...opts });
  const team = useQuery({ ...reportQuery('team', query), ...opts });
  const customers = useQuery({ ...reportQuery('customers', query), ...opts });
  const activity = useQuery({ ...reportQuery('activity', query), ...opts });
  const trends = useQuery({ ...reportQuery('trends', query), ...opts });
  const period = sales.data?.period;
  const previous = sales.data?.previous?.period;
  const reports = [sales, support, team, customers, activity, trends];
  const failed = reports.find((r) => r.isError);
  return (
    <Page title="Analytics">
      <RangePicker key={`${search.range}-${search.from}-${search.to}`} search={search} onChange={(next) => void navigate({ search: compact({ ...next }) })} />
      {period ? (
        <p className="period" data-period-from={period.from} data-period-to={period.to}>
          Period: {utcDay(period.from)} up to (not including) {utcDay(period.to)}, UTC
          {previous ? ` · compared with ${utcDay(previous.from)} up to ${utcDay(previous.to)}` : ''}
        </p>
      ) : null}
      {failed ? <ErrorState error={failed.error} onRetry={() => reports.forEach((r) => void r.refetch())} /> : null}
      {reports.some((r) => r.isPending) && !failed ? <Loading label="Loading analytics…" /> : null}
      <div aria-busy={reports.some((r) => r.isFetching) || undefined}>
        {sales.data ? <SalesPanel report={sales.data} /> : null}
        {support.data ? <SupportPanel report={support.data} /> : null}
        {team.data ? <TeamPanel report={team.data} /> : null}
        {customers.data ? <CustomersPanel report={customers.data} /> : null}
        {activity.data ? <ActivityMixPanel report={activity.data} /> : null}
        {trends.data ? <TrendsPanel report={trends.data} /> : null}
      </div>
    </Page>
  );
}
