import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import type { analyticsQuery } from './analytics-search';
import type { ActivityReport, CustomersReport, SalesReport, SupportReport, TeamReport, TrendsReport } from './reports';

type ReportQuery = ReturnType<typeof analyticsQuery>;

interface Reports {
  sales: SalesReport;
  support: SupportReport;
  team: TeamReport;
  customers: CustomersReport;
  activity: ActivityReport;
  trends: TrendsReport;
}

export type ReportKind = keyof Reports;

const fetchers: { [K in ReportKind]: (query: ReportQuery) => Promise<Reports[K]> } = {
  sales: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/sales', { params: { query } })),
  support: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/support', { params: { query } })),
  team: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/team', { params: { query } })),
  customers: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/customers', { params: { query } })),
  activity: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/activity', { params: { query } })),
  trends: (query: ReportQuery) => unwrap(api.GET('/api/v1/analytics/trends', { params: { query } })),
};

export const REPORT_KINDS = Object.keys(fetchers) as ReportKind[];

/**
 * One analytics report for the page's period. The route's loader starts all six while the page's
 * code (and its chart library) loads; the page reads the same queries.
 */
export const reportQuery = <K extends ReportKind>(kind: K, query: ReportQuery) =>
  queryOptions({
    queryKey: ['analytics', kind, query] as const,
    queryFn: () => fetchers[kind](query),
    staleTime: 30_000,
  });
