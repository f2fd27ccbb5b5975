import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, optionalId, optionalString } from '../../lib/url-search';
import { signedInRoute } from './root';

const orgs = createRoute({ getParentRoute: () => signedInRoute, path: 'orgs' });

const orgsIndex = createRoute({
  getParentRoute: () => orgs,
  path: '/',
  validateSearch: (raw: Record<string, unknown>): { q?: string; page?: number } => compact({ q: optionalString(raw.q), page: optionalId(raw.page) }),
  component: lazyRouteComponent(() => import('../../features/orgs/orgs-list-page'), 'OrgsListPage'),
});

const org = createRoute({
  getParentRoute: () => orgs,
  path: '$orgId',
  component: lazyRouteComponent(() => import('../../features/orgs/org-page'), 'OrgPage'),
});

const contacts = createRoute({ getParentRoute: () => signedInRoute, path: 'contacts' });

const contactsIndex = createRoute({
  getParentRoute: () => contacts,
  path: '/',
  validateSearch: (raw: Record<string, unknown>): { q?: string; org_id?: number; page?: number } =>
    compact({ q: optionalString(raw.q), org_id: optionalId(raw.org_id), page: optionalId(raw.page) }),
  component: lazyRouteComponent(() => import('../../features/contacts/contacts-list-page'), 'ContactsListPage'),
});

const contact = createRoute({
  getParentRoute: () => contacts,
  path: '$contactId',
  component: lazyRouteComponent(() => import('../../features/contacts/contact-page'), 'ContactPage'),
});

export const customerRoutes = [orgs.addChildren([orgsIndex, org]), contacts.addChildren([contactsIndex, contact])];
