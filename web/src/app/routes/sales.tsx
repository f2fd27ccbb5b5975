import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { signedInRoute } from './root';

// Deals and the pipeline board. Filters, sorts and pages belong in validateSearch (the URL).
const deals = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'deals',
  component: lazyRouteComponent(() => import('../../features/deals/deals-page'), 'DealsPage'),
});

const pipeline = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'pipeline',
  component: lazyRouteComponent(() => import('../../features/pipeline/pipeline-page'), 'PipelinePage'),
});

export const salesRoutes = [deals, pipeline];
