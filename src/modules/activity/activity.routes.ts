import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { listRoute } from '../../http/read-routes.ts';
import { ActivityCustomer, ActivityEmployee, ActivityItem, ActivityList, ActivityListQuery } from './activity.schemas.ts';
import * as service from './activity.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const activitySchemas = [ActivityEmployee, ActivityCustomer, ActivityItem];

export function registerActivityRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/activity', {
    scope: 'activity:read',
    errors: ['org_not_found', 'user_not_found', 'deal_not_found', 'ticket_not_found'],
    operationId: 'listActivity',
    summary: 'Unified activity feed',
    description:
      'Deal timeline entries and support logs in one list, newest first (created_at desc; at equal times the larger ' +
      'numeric id first, then timeline before support_log). Each source contributes at most its newest 500 matching ' +
      'rows; pagination runs over that merged, capped set, so `pagination.total` is at most 1000 with `source=all` and ' +
      '500 with a single source. A deal_id filter selects timeline entries only, a ticket_id filter support logs only. ' +
      'Filter ids of records outside the account are 404.',
    tags: ['activity'],
    querystring: ActivityListQuery,
    response: ActivityList,
    list: (accountId, query, page) => service.listActivity(deps.db, accountId, query, page),
  });
}
