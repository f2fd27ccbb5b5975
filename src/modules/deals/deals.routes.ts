import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import { writeRoute } from '../../http/write-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import { registerActivityRoutes } from './activities.routes.ts';
import { DealStatusChange, LostReasonUsage } from './deals.history.ts';
import { registerDealHistoryRoutes } from './deals.history.routes.ts';
import { CreateDealBody, Deal, DealActivity, DealList, DealListQuery, DealSearchQuery, PatchDealBody } from './deals.schemas.ts';
import * as service from './deals.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const dealSchemas: TSchema[] = [Deal, DealActivity, DealStatusChange, LostReasonUsage];

const DealRef = Type.Ref('Deal');
// Creating and changing deals: extensions to the integration API, for full-access callers.
const extension = { scope: '*' as const, tags: ['extensions'] };

export function registerDealRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/deals', {
    scope: 'deals:read',
    errors: ['org_not_found', 'user_not_found', 'contact_not_found'],
    operationId: 'listDeals',
    summary: 'List, filter and sort deals',
    description:
      'Sorting by `title` is case-insensitive (code-point order of the lower-cased title); by `status`, alphabetical. ' +
      'Ties are broken by id in the same direction. An `org_id` or `owner_user_id` outside the account is 404.',
    tags: ['deals'],
    querystring: DealListQuery,
    response: DealList,
    list: (accountId, query, page) => service.listDeals(deps.db, accountId, query, page),
  });

  listRoute(app, '/deals/search', {
    scope: 'deals:read',
    errors: ['org_not_found'],
    operationId: 'searchDeals',
    summary: 'Look up deals by payment customer id, contact e-mail or org',
    description:
      'At least one of `payment_customer_id`, `contact_email`, `org_id` is required (422 naming all three otherwise); ' +
      'given together they all must match. Newest first.',
    tags: ['deals'],
    querystring: DealSearchQuery,
    response: DealList,
    list: (accountId, query, page) => service.searchDeals(deps.db, accountId, query, page),
  });

  recordRoute(app, '/deals/:id', {
    scope: 'deals:read',
    errors: ['deal_not_found'],
    operationId: 'getDeal',
    summary: 'One deal',
    tags: ['deals'],
    params: IdParams,
    response: DealRef,
    get: (accountId, params) => service.getDeal(deps.db, accountId, params.id),
  });

  writeRoute(app, '/deals', {
    ...extension,
    method: 'POST',
    errors: ['org_not_found', 'user_not_found', 'contact_not_found'],
    operationId: 'createDeal',
    summary: 'Create a deal',
    description:
      'Records the initial status in the status history and emits `deal.created`. A deal created already `won` or ' +
      '`lost` also emits `deal.won` / `deal.lost` (after `deal.created`) and is closed by the caller at creation time. ' +
      '`contact_id` must be a contact of `org_id`. `lost_reason` is only accepted with status `lost`.',
    body: CreateDealBody,
    status: 201,
    response: DealRef,
    write: ({ actor, body, claim }) => service.createDeal(deps, actor, body, claim),
  });

  writeRoute(app, '/deals/:id', {
    ...extension,
    method: 'PATCH',
    errors: ['deal_not_found', 'user_not_found', 'contact_not_found'],
    operationId: 'updateDeal',
    summary: 'Update a deal or move its status',
    description:
      'Open statuses (new, qualified, proposal, negotiation) move to any other status; a closed deal (won, lost) may be ' +
      'reopened to an open status, and any deal may be marked won or lost (won → lost and lost → won are direct moves). Every status ' +
      'change is recorded. Moving to won or lost sets closed_at and closed_by_user_id (null for API keys) and emits ' +
      '`deal.won` / `deal.lost`; reopening clears closed_at, closed_by_user_id and lost_reason. `lost_reason` is only ' +
      "accepted when the deal is or becomes lost. `contact_id` must be a contact of the deal's org (404 `contact_not_found` " +
      'when unknown; 422 `fields.contact_id = "not_in_org"` for another org\'s). Other edits emit no event. A body that changes nothing leaves ' +
      'updated_at as it was.',
    params: IdParams,
    body: PatchDealBody,
    status: 200,
    response: DealRef,
    write: ({ actor, params, body, claim }) => service.patchDeal(deps, actor, params.id, body, claim),
  });

  registerActivityRoutes(app, deps);
  registerDealHistoryRoutes(app, deps);
}
