import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { signedInRoute } from './root';

const activity = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'activity',
  component: lazyRouteComponent(() => import('../../features/activity/activity-page'), 'ActivityPage'),
});

const analytics = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'analytics',
  component: lazyRouteComponent(() => import('../../features/analytics/analytics-page'), 'AnalyticsPage'),
});

const search = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'search',
  component: lazyRouteComponent(() => import('../../features/search/search-page'), 'SearchPage'),
});

export const insightRoutes = [activity, analytics, search];
