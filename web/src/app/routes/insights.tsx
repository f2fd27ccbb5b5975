import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateActivitySearch } from '../../features/activity/activity-search';
import { validateAnalyticsSearch } from '../../features/analytics/analytics-search';
import { compact, optionalString } from '../../lib/url-search';
import { signedInRoute } from './root';

const activity = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'activity',
  validateSearch: validateActivitySearch,
  component: lazyRouteComponent(() => import('../../features/activity/activity-feed-page'), 'ActivityFeedPage'),
});

// The analytics page (and its chart library) loads only when visited.
const analytics = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'analytics',
  validateSearch: validateAnalyticsSearch,
  component: lazyRouteComponent(() => import('../../features/analytics/analytics-page'), 'AnalyticsPage'),
});

const search = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'search',
  validateSearch: (raw: Record<string, unknown>): { q?: string } => compact({ q: optionalString(raw.q) }),
  component: lazyRouteComponent(() => import('../../features/search/search-page-full'), 'SearchPage'),
});

export const insightRoutes = [activity, analytics, search];
