import { Type } from 'typebox';
import { writeRoute } from '../../http/write-routes.ts';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import * as service from './activities.service.ts';
import { ActivityListQuery, ActivityParams, CreateActivityBody, DealActivityList } from './deals.schemas.ts';

const ActivityRef = Type.Ref('DealActivity');

/** The timeline of a deal: list, read one, log one. */
export function registerActivityRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/deals/:id/activities', {
    // The scope table grants deals:write "list and create deal activities"; the index names deals:read.
    scope: ['deals:read', 'deals:write'],
    errors: ['deal_not_found'],
    operationId: 'listDealActivities',
    summary: 'Timeline activities of a deal',
    description: 'Newest first by default.',
    tags: ['deals'],
    params: IdParams,
    querystring: ActivityListQuery,
    response: DealActivityList,
    list: (accountId, query, page, params) => service.listActivities(deps.db, accountId, params.id, query, page),
  });

  recordRoute(app, '/deals/:id/activities/:activity_id', {
    scope: ['deals:read', 'deals:write'],
    errors: ['deal_not_found', 'deal_activity_not_found'],
    operationId: 'getDealActivity',
    summary: 'One timeline activity of a deal',
    tags: ['deals'],
    params: ActivityParams,
    response: ActivityRef,
    get: (accountId, params) => service.getActivity(deps.db, accountId, params.id, params.activity_id),
  });

  writeRoute(app, '/deals/:id/activities', {
    method: 'POST',
    scope: 'deals:write',
    errors: ['deal_not_found', 'idempotency_key_in_use', 'idempotency_key_reused'],
    operationId: 'createDealActivity',
    summary: 'Log an activity on a deal',
    description:
      "Answers 201 with the activity and a Location header, and emits `deal.activity.created` (org_id: the deal's org). " +
      "`activity_kind` becomes the activity's `event_type`; `metadata_json` is returned as `metadata`. Idempotent with " +
      'the Idempotency-Key header or the `idempotency_key` field.',
    tags: ['deals'],
    params: IdParams,
    body: CreateActivityBody,
    status: 201,
    response: ActivityRef,
    write: ({ actor, params, body, claim }) => service.createActivity(deps, actor, params.id, body, claim),
  });
}
