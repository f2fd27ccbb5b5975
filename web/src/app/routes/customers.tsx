import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { signedInRoute } from './root';

const orgs = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'orgs',
  component: lazyRouteComponent(() => import('../../features/orgs/orgs-page'), 'OrgsPage'),
});

const contacts = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'contacts',
  component: lazyRouteComponent(() => import('../../features/contacts/contacts-page'), 'ContactsPage'),
});

export const customerRoutes = [orgs, contacts];
