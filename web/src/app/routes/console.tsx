import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { canManage } from '../../lib/session';
import { signedInRoute } from './root';

const webhooks = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks',
  component: lazyRouteComponent(() => import('../../features/webhooks/webhooks-page'), 'WebhooksPage'),
});

/** Owners and admins only: the server refuses the others; the console does not offer the page. */
const adminOnly = ({ context }: { context: { session: { user: { role: 'owner' | 'admin' | 'member' } } } }) => {
  if (!canManage(context.session.user.role)) throw redirect({ to: '/deals' });
};

const apiKeys = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'api-keys',
  beforeLoad: adminOnly,
  component: lazyRouteComponent(() => import('../../features/api-keys/api-keys-page'), 'ApiKeysPage'),
});

const team = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'team',
  beforeLoad: adminOnly,
  component: lazyRouteComponent(() => import('../../features/team/team-page'), 'TeamPage'),
});

export const consoleRoutes = [webhooks, apiKeys, team];
