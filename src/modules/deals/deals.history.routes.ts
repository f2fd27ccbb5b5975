import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams, PageQuery } from '../../http/schemas.ts';
import { pageOf } from '../../lib/pagination.ts';
import { Type } from 'typebox';
import { listLostReasons, listStatusHistory, LostReasonUsageList, DealStatusChangeList, StatusHistoryQuery } from './deals.history.ts';

/** Status history of a deal and the account's lost reasons: what the console's board and deal page read. */
export function registerDealHistoryRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/deals/:id/status-history',
    {
      config: { scope: 'deals:read', errors: ['deal_not_found'] },
      schema: {
        operationId: 'listDealStatusHistory',
        summary: 'Status changes of a deal',
        description:
          'Every recorded status change, the status the deal was created with included (`from_status` null). Newest first ' +
          'by default. The analytics funnel is computed from these rows.',
        tags: ['deals'],
        params: IdParams,
        querystring: StatusHistoryQuery,
        response: { 200: DealStatusChangeList },
      },
    },
    async (request) => listStatusHistory(deps.db, request.auth.accountId, request.params.id, request.query.direction ?? 'desc', pageOf(request.query)),
  );

  app.get(
    '/deals/lost-reasons',
    {
      config: { scope: 'deals:read', errors: [] },
      schema: {
        operationId: 'listDealLostReasons',
        summary: 'Lost reasons in use',
        description:
          "The distinct lost reasons (code and label) of the account's lost deals, with how many lost deals carry each " +
          'and when the newest of them was lost; most recently used first. A reopened deal no longer counts.',
        tags: ['deals'],
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: LostReasonUsageList },
      },
    },
    async (request) => listLostReasons(deps.db, request.auth.accountId, pageOf(request.query)),
  );
}
