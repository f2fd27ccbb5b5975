import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { rootRoute, signedInRoute } from './routes/root';
import { signInRoute, homeRoute } from './routes/auth';
import { consoleRoutes } from './routes/console';
import { salesRoutes } from './routes/sales';
import { supportRoutes } from './routes/support';
import { customerRoutes } from './routes/customers';
import { insightRoutes } from './routes/insights';
import { NotFound } from './not-found';

/**
 * The route tree. Each file under routes/ adds one page family's routes under the signed-in
 * layout; pages and the shell load lazily (lazyRouteComponent), so the first load carries only
 * the router and the sign-in page.
 */
const routeTree = rootRoute.addChildren([
  signInRoute,
  signedInRoute.addChildren([homeRoute, ...salesRoutes, ...supportRoutes, ...customerRoutes, ...insightRoutes, ...consoleRoutes]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
