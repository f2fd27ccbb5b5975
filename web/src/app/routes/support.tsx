import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { signedInRoute } from './root';

const tickets = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'tickets',
  component: lazyRouteComponent(() => import('../../features/tickets/tickets-page'), 'TicketsPage'),
});

export const supportRoutes = [tickets];
