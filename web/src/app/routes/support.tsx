import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateTicketsSearch } from '../../features/tickets/tickets-search';
import { signedInRoute } from './root';

const tickets = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'tickets',
});

const ticketsIndex = createRoute({
  getParentRoute: () => tickets,
  path: '/',
  validateSearch: validateTicketsSearch,
  component: lazyRouteComponent(() => import('../../features/tickets/tickets-list-page'), 'TicketsListPage'),
});

const ticket = createRoute({
  getParentRoute: () => tickets,
  path: '$ticketId',
  component: lazyRouteComponent(() => import('../../features/tickets/ticket-page'), 'TicketPage'),
});

export const supportRoutes = [tickets.addChildren([ticketsIndex, ticket])];
