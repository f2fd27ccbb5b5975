import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { canManage } from '../../lib/session';
import { oneOf, pageSearch, positiveInt, text } from '../../lib/search';
import { DELIVERY_STATUSES, deliveriesQuery, endpointsQuery, EVENT_TYPES, healthQuery, type DeliveryFilters } from '../../features/webhooks/api';
import { signedInRoute } from './root';

const webhooks = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks',
  // Started, not awaited: the request runs while the page's code loads, and the page shows its loading state meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(endpointsQuery);
    void context.queryClient.prefetchQuery(healthQuery);
  },
  component: lazyRouteComponent(() => import('../../features/webhooks/endpoints-page'), 'EndpointsPage'),
});

const webhookEndpoint = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks/endpoints/$endpointId',
  component: lazyRouteComponent(() => import('../../features/webhooks/endpoint-page'), 'EndpointPage'),
});

/** The deliveries table's filters and page, kept in the URL. */
function deliverySearch(s: Record<string, unknown>): DeliveryFilters {
  return {
    status: oneOf(s.status, DELIVERY_STATUSES),
    event_type: oneOf(s.event_type, EVENT_TYPES),
    endpoint_id: positiveInt(s.endpoint_id),
    from: text(s.from),
    to: text(s.to),
    ...pageSearch(s),
  };
}

const webhookDeliveries = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks/deliveries',
  validateSearch: deliverySearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(deliveriesQuery(deps));
    void context.queryClient.prefetchQuery(endpointsQuery);
  },
  component: lazyRouteComponent(() => import('../../features/webhooks/deliveries-page'), 'DeliveriesPage'),
});

const webhookDelivery = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks/deliveries/$deliveryId',
  component: lazyRouteComponent(() => import('../../features/webhooks/delivery-page'), 'DeliveryPage'),
});

/** Owners and admins only: the server refuses the others; the console does not offer the page. */
const adminOnly = ({ context }: { context: { session: { user: { role: 'owner' | 'admin' | 'member' } } } }) => {
  if (!canManage(context.session.user.role)) throw redirect({ to: '/deals' });
};

const apiKeys = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'api-keys',
  validateSearch: (s: Record<string, unknown>): { page?: number } => pageSearch(s),
  beforeLoad: adminOnly,
  component: lazyRouteComponent(() => import('../../features/api-keys/api-keys-page'), 'ApiKeysPage'),
});

const team = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'team',
  validateSearch: (s: Record<string, unknown>): { page?: number } => pageSearch(s),
  beforeLoad: adminOnly,
  component: lazyRouteComponent(() => import('../../features/team/team-page'), 'TeamPage'),
});

export const consoleRoutes = [webhooks, webhookEndpoint, webhookDeliveries, webhookDelivery, apiKeys, team];
