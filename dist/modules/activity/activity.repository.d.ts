import type { Executor } from '../../db/database.ts';
export interface ActivityFilter {
    orgId?: number;
    userId?: number;
    dealId?: number;
    ticketId?: number;
    from: number | null;
    to: number | null;
}
/** The sort key of one feed entry: enough to merge both sources and pick a page. */
export interface FeedKey {
    id: number;
    created_at: number;
}
/**
 * The newest `cap` deal activities matching the filter, keys only: an index range scan on
 * (account_id, created_at, id) or on the org / user index, never a full table read.
 */
export declare function timelineKeys(db: Executor, accountId: number, f: ActivityFilter, cap: number): Promise<FeedKey[]>;
export declare function supportLogKeys(db: Executor, accountId: number, f: ActivityFilter, cap: number): Promise<FeedKey[]>;
/** Deal activities of one page, with their author, org and the deal's contact. */
export declare function timelineRows(db: Executor, accountId: number, ids: number[]): Promise<{
    contact_email: string | null;
    contact_id: number | null;
    contact_name: string | null;
    created_at: number;
    deal_id: number;
    event_type: "call" | "email" | "meeting" | "note";
    id: number;
    message: string;
    org_id: number;
    org_name: string;
    outcome: "failed" | "skipped" | "success" | null;
    user_display_name: string | null;
    user_email: string | null;
    user_id: number | null;
}[]>;
/** Support logs of one page, with their author, org and the ticket's contact. */
export declare function supportLogRows(db: Executor, accountId: number, ids: number[]): Promise<{
    channel: string;
    contact_email: string | null;
    contact_id: number | null;
    contact_name: string | null;
    created_at: number;
    id: number;
    note: string;
    org_id: number;
    org_name: string;
    ticket_id: number;
    user_display_name: string | null;
    user_email: string | null;
    user_id: number | null;
}[]>;
export type TimelineRow = Awaited<ReturnType<typeof timelineRows>>[number];
export type SupportLogRow = Awaited<ReturnType<typeof supportLogRows>>[number];
