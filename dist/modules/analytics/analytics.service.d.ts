import type { Executor } from '../../db/database.ts';
import { type ReportContext } from './analytics.report.ts';
export declare function orgNameMap(db: Executor, accountId: number, ids: number[]): Promise<Map<number, string>>;
export declare function teamReport(ctx: ReportContext): Promise<Record<string, unknown>>;
export declare function customersReport(ctx: ReportContext): Promise<Record<string, unknown>>;
export declare function activityReport(ctx: ReportContext): Promise<Record<string, unknown>>;
export declare function trendsReport(ctx: ReportContext): Promise<Record<string, unknown>>;
