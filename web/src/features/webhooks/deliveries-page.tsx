import { useNavigate, useSearch } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { FilterForm } from '../../components/filter-form';
import { Options, SelectField, TextField } from '../../components/field';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import type { EventType } from '../../lib/types';
import { DELIVERY_STATUSES, EVENT_TYPES, useDeliveries, useEndpoints, type DeliveryFilters } from './api';
import { DeliveriesTable } from './deliveries-table';

/** Every delivery, filtered by the URL (status, event type, endpoint, time); refreshes itself while any is pending. */
export function DeliveriesPage() {
  const filters = useSearch({ from: '/signed-in/webhooks/deliveries' });
  const navigate = useNavigate({ from: '/webhooks/deliveries' });
  const endpoints = useEndpoints();
  const deliveries = useDeliveries(filters);
  const set = (patch: Partial<DeliveryFilters>) => navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }) });
  return (
    <Page title="Webhook deliveries">
      <FilterForm label="Filter deliveries">
        <SelectField label="Status" value={filters.status ?? ''} onChange={(e) => set({ status: (e.target.value || undefined) as DeliveryFilters['status'] })}>
          <Options values={DELIVERY_STATUSES} none="Any" />
        </SelectField>
        <SelectField
          label="Event type"
          value={filters.event_type ?? ''}
          onChange={(e) => set({ event_type: (e.target.value || undefined) as EventType | undefined })}
        >
          <Options values={EVENT_TYPES} none="Any" />
        </SelectField>
        <SelectField
          label="Endpoint"
          value={filters.endpoint_id ?? ''}
          onChange={(e) => set({ endpoint_id: e.target.value ? Number(e.target.value) : undefined })}
        >
          <option value="">Any</option>
          {endpoints.data?.data.map((ep) => (
            <option key={ep.id} value={ep.id}>
              {ep.name}
            </option>
          ))}
        </SelectField>
        <TextField label="From" type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value || undefined })} />
        <TextField label="To" type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value || undefined })} />
      </FilterForm>
      {deliveries.error ? <Alert>{deliveries.error.message}</Alert> : null}
      <p className="muted" role="status">
        {deliveries.data ? `${deliveries.data.pagination.total} deliveries` : 'Loading…'}
        {deliveries.isRefetching ? ' · refreshing' : ''}
      </p>
      <DeliveriesTable deliveries={deliveries.data?.data ?? []} endpoints={endpoints.data?.data ?? []} caption="Webhook deliveries" />
      {deliveries.data ? <Pager pagination={deliveries.data.pagination} onPage={(page) => navigate({ search: (prev) => ({ ...prev, page }) })} /> : null}
    </Page>
  );
}
