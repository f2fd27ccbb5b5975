import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateActivitySearch } from '../../features/activity/activity-search';
import { analyticsQuery, validateAnalyticsSearch } from '../../features/analytics/analytics-search';
import { REPORT_KINDS, reportQuery } from '../../features/analytics/report-queries';
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
  loaderDeps: ({ search }) => search,
  // Started, not awaited: the six reports are requested while the page's code loads.
  loader: ({ context, deps }) => {
    for (const kind of REPORT_KINDS) void context.queryClient.prefetchQuery(reportQuery(kind, analyticsQuery(deps)));
  },
  component: lazyRouteComponent(() => import('../../features/analytics/analytics-page'), 'AnalyticsPage'),
});

const search = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'search',
  validateSearch: (raw: Record<string, unknown>): { q?: string } => compact({ q: optionalString(raw.q) }),
  component: lazyRouteComponent(() => import('../../features/search/search-page-full'), 'SearchPage'),
});

export const insightRoutes = [activity, analytics, search];
