import { type ReportContext } from './analytics.report.ts';
export declare function supportReport(ctx: ReportContext): Promise<{
    currently_open: number;
}>;
