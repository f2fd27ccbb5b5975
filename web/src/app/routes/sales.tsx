import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateDealsSearch } from '../../features/deals/deals-search';
import { compact, optionalId, optionalString } from '../../lib/url-search';
import { boardColumnQuery } from '../../features/pipeline/board-query';
import { usersQuery } from '../../lib/lookups';
import { DEAL_STATUSES } from '../../lib/schemas';
import { signedInRoute } from './root';

// Deals and the pipeline board. Filters, sorts and pages belong in validateSearch (the URL).
const deals = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'deals',
});

const dealsIndex = createRoute({
  getParentRoute: () => deals,
  path: '/',
  validateSearch: validateDealsSearch,
  component: lazyRouteComponent(() => import('../../features/deals/deals-table-page'), 'DealsTablePage'),
});

const deal = createRoute({
  getParentRoute: () => deals,
  path: '$dealId',
  component: lazyRouteComponent(() => import('../../features/deals/deal-page'), 'DealPage'),
});

const pipeline = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'pipeline',
  validateSearch: (raw: Record<string, unknown>): { owner?: number; org?: number; q?: string } =>
    compact({ owner: optionalId(raw.owner), org: optionalId(raw.org), q: optionalString(raw.q) }),
  loaderDeps: ({ search }) => search,
  // Started, not awaited: the six columns' first pages and the team are requested while the board's code loads.
  loader: ({ context, deps }) => {
    for (const status of DEAL_STATUSES) void context.queryClient.prefetchInfiniteQuery(boardColumnQuery(status, deps));
    void context.queryClient.prefetchQuery(usersQuery);
  },
  component: lazyRouteComponent(() => import('../../features/pipeline/board-page'), 'BoardPage'),
});

export const salesRoutes = [deals.addChildren([dealsIndex, deal]), pipeline];
