import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { sessionQuery } from '../../lib/session';
import { RouteError } from '../route-error';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: RouteError,
});

/**
 * Every page but sign-in: needs a session, and renders inside the shell (navigation, search,
 * sign-out). The shell is a chunk of its own, so the sign-in page loads without it; the sign-in
 * page fetches it while the visitor types (features/auth/preload.ts).
 */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    return { session };
  },
  component: lazyRouteComponent(() => import('../shell'), 'Shell'),
});
