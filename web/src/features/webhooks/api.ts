import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import type { EventType } from '../../lib/types';
import { EVENT_TYPES as CATALOG } from '../../../../src/modules/events/catalog.ts';

/**
 * The service's event catalog, in its order (the forms list it so). Typed as the API's own event
 * type, so a catalog name the API does not accept fails the console's type check.
 */
export const EVENT_TYPES: readonly EventType[] = CATALOG;

/** A delivery's states, as the deliveries list filters by them. */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;

export interface DeliveryFilters {
  status?: (typeof DELIVERY_STATUSES)[number];
  event_type?: EventType;
  endpoint_id?: number;
  from?: string;
  to?: string;
  page?: number;
}

const REFRESH_MS = 2000;

function attemptSoon(d: { status: string; next_attempt_at: string | null }): boolean {
  return d.status === 'pending' || (d.next_attempt_at !== null && new Date(d.next_attempt_at).getTime() - Date.now() < 60_000);
}

/**
 * Fresh for 5 s: the route's loader fetches while the page's code loads, and the page mounting
 * right after reads that answer instead of asking again (writes invalidate ['webhooks'] anyway).
 */
const PREFETCHED_FRESH_MS = 5_000;

/** The account's endpoints (up to 100): also started by the routes' loaders, alongside the page's code. */
export const endpointsQuery = queryOptions({
  queryKey: ['webhooks', 'endpoints'],
  staleTime: PREFETCHED_FRESH_MS,
  queryFn: () => unwrap(api.GET('/api/v1/webhooks/endpoints', { params: { query: { per_page: 100 } } })),
});

export function useEndpoints() {
  return useQuery(endpointsQuery);
}

export const healthQuery = queryOptions({
  queryKey: ['webhooks', 'health'],
  queryFn: () => unwrap(api.GET('/api/v1/webhooks/endpoint-health')),
  staleTime: PREFETCHED_FRESH_MS,
});

export function useHealth() {
  return useQuery({ ...healthQuery, refetchInterval: 15_000 });
}

export function useEndpoint(id: number) {
  return useQuery({ queryKey: ['webhooks', 'endpoint', id], queryFn: () => unwrap(api.GET('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } } })) });
}

/** One page of deliveries; refreshes itself every 2 s while any delivery on it still waits for an attempt. */
export const deliveriesQuery = (filters: DeliveryFilters, perPage = 25) =>
  queryOptions({
    queryKey: ['webhooks', 'deliveries', filters, perPage],
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: () => unwrap(api.GET('/api/v1/webhooks/deliveries', { params: { query: { ...filters, per_page: perPage } } })),
    refetchInterval: (q) => (q.state.data?.data.some(attemptSoon) ? REFRESH_MS : false),
  });

export function useDeliveries(filters: DeliveryFilters, perPage = 25) {
  return useQuery(deliveriesQuery(filters, perPage));
}

export function useDelivery(id: number) {
  return useQuery({
    queryKey: ['webhooks', 'delivery', id],
    queryFn: () => unwrap(api.GET('/api/v1/webhooks/deliveries/{id}', { params: { path: { id } } })),
    // Also while an attempt is due within the minute (a Retry, or the first retries of the schedule).
    refetchInterval: (q) => (q.state.data && attemptSoon(q.state.data) ? REFRESH_MS : false),
  });
}

function useWebhookMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['webhooks'] }) });
}

export interface EndpointInput {
  name: string;
  url: string;
  event_types: EventType[];
}

export const useCreateEndpoint = () => useWebhookMutation((body: EndpointInput) => unwrap(api.POST('/api/v1/webhooks/endpoints', { body })));
export const useUpdateEndpoint = () =>
  useWebhookMutation(({ id, ...body }: Partial<EndpointInput> & { id: number; enabled?: boolean }) =>
    unwrap(api.PATCH('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } }, body })),
  );
export const useDeleteEndpoint = () => useWebhookMutation((id: number) => unwrap(api.DELETE('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } } })));
export const useRotateSecret = () =>
  useWebhookMutation((id: number) => unwrap(api.POST('/api/v1/webhooks/endpoints/{id}/rotate-secret', { params: { path: { id } }, body: {} })));
export const useRecover = () =>
  useWebhookMutation(({ id, since }: { id: number; since: string }) =>
    unwrap(api.POST('/api/v1/webhooks/endpoints/{id}/recover', { params: { path: { id } }, body: { since } })),
  );
export const useTestSend = () =>
  useWebhookMutation(({ id, event_type }: { id: number; event_type: EventType }) =>
    unwrap(api.POST('/api/v1/webhooks/endpoints/{id}/test', { params: { path: { id } }, body: { event_type } })),
  );
export const useRetry = () =>
  useWebhookMutation((id: number) => unwrap(api.POST('/api/v1/webhooks/deliveries/{id}/retry', { params: { path: { id } }, body: {} })));
