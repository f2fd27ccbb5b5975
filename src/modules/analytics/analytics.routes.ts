import type { TSchema } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { resolveRange, wantsCompare, type RangeQuery } from './analytics.period.ts';
import type { ReportContext } from './analytics.report.ts';
import {
  ActivityReport,
  AnalyticsChange,
  AnalyticsPeriod,
  AnalyticsQuery,
  CustomersReport,
  MoneyTotal,
  SalesQuery,
  SalesReport,
  SupportReport,
  TeamReport,
  TrendsReport,
} from './analytics.schemas.ts';
import { salesReport } from './analytics.sales.service.ts';
import { supportReport } from './analytics.support.service.ts';
import * as service from './analytics.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const analyticsSchemas: TSchema[] = [AnalyticsPeriod, AnalyticsChange, MoneyTotal];

const COMMON =
  'Periods are whole UTC calendar periods [from, to) (`range`), or a custom from/to. Every response states its `period`; ' +
  'with `compare` it adds `previous` (the same period metrics for the previous period) and `change` (a change object per numeric total). ' +
  'Bad ranges are 422 naming the field: unknown range, impossible date, from after to, to without from, longer than 10 years.';

export function registerAnalyticsRoutes(app: App, deps: ModuleDeps): void {
  const context = (accountId: number, query: RangeQuery & { compare?: string }): ReportContext => {
    const now = deps.clock.now();
    return { db: deps.db, accountId, now, range: resolveRange(query, now), compare: wantsCompare(query.compare) };
  };

  app.get(
    '/analytics/sales',
    {
      config: { scope: 'analytics:read', errors: ['user_not_found'] },
      schema: {
        operationId: 'getSalesAnalytics',
        summary: 'Sales aggregates',
        description: `Deals created, won, lost, win rate, by rep, funnel, lost reasons, and the open pipeline now. ${COMMON}`,
        tags: ['analytics'],
        querystring: SalesQuery,
        response: { 200: SalesReport },
      },
    },
    async (request) => {
      const q = request.query;
      // Reports are assembled generically (buildReport); their schemas are the contract, checked by the tests.
      return salesReport(context(request.auth.accountId, q), { ownerUserId: q.owner_user_id, by: q.by ?? 'owner' }) as never;
    },
  );

  const simple = [
    [
      '/analytics/support',
      'getSupportAnalytics',
      'Support aggregates',
      'Tickets created, currently open, closed in the period, support updates, aged open (over 7 days), by employee, by customer.',
      SupportReport,
      supportReport,
    ],
    [
      '/analytics/team',
      'getTeamAnalytics',
      'Per-user totals',
      'Per team user: deals created, won, lost, activities, tickets closed, support logs.',
      TeamReport,
      service.teamReport,
    ],
    [
      '/analytics/customers',
      'getCustomerAnalytics',
      'Customer health',
      'Customer org rankings by numeric facts, and the orgs with open support and open deals now.',
      CustomersReport,
      service.customersReport,
    ],
    [
      '/analytics/activity',
      'getActivityAnalytics',
      'Activity volume mix',
      'Timeline activities by kind and support logs, by source.',
      ActivityReport,
      service.activityReport,
    ],
    [
      '/analytics/trends',
      'getTrendAnalytics',
      'ISO-week trends',
      'One zero-filled row of facts per ISO week (e.g. 2026-W47) overlapping the period.',
      TrendsReport,
      service.trendsReport,
    ],
  ] as const;
  for (const [url, operationId, summary, description, response, run] of simple) {
    app.get(
      url,
      {
        config: { scope: 'analytics:read' },
        schema: {
          operationId,
          summary,
          description: `${description} ${COMMON}`,
          tags: ['analytics'],
          querystring: AnalyticsQuery,
          response: { 200: response },
        },
      },
      async (request) => run(context(request.auth.accountId, request.query as RangeQuery & { compare?: string })) as never,
    );
  }
}
