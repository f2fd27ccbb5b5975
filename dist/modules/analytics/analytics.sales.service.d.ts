import { type ReportContext } from './analytics.report.ts';
import * as repo from './analytics.sales.repository.ts';
export declare function salesReport(ctx: ReportContext, f: repo.SalesFilter): Promise<Record<string, unknown>>;
