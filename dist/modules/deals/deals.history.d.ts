import { Type, type Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
/**
 * Reads the console's deal pages need beyond the deal itself: the recorded status changes of
 * one deal, and the lost reasons the account has used (offered again when a deal is lost).
 */
export declare const DealStatusChange: Type.TObject<{
    id: Type.TInteger;
    deal_id: Type.TInteger;
    from_status: Type.TUnion<[Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>, Type.TNull]>;
    to_status: Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>;
    changed_by_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    changed_at: Type.TString;
}>;
type DealStatusChangeView = Static<typeof DealStatusChange>;
export declare const DealStatusChangeList: Type.TObject<{
    data: Type.TArray<Type.TRef<"DealStatusChange">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const StatusHistoryQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
}>;
export declare const LostReasonUsage: Type.TObject<{
    code: Type.TString;
    label: Type.TString;
    deals: Type.TInteger;
    last_lost_at: Type.TUnion<[Type.TString, Type.TNull]>;
}>;
type LostReasonUsageView = Static<typeof LostReasonUsage>;
export declare const LostReasonUsageList: Type.TObject<{
    data: Type.TArray<Type.TRef<"LostReasonUsage">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare function listStatusHistory(db: Executor, accountId: number, dealId: number, direction: 'asc' | 'desc', page: PageRequest): Promise<ListResult<DealStatusChangeView>>;
/** Lost deals grouped by reason, most recently used first (ties: code, then label, in code-point order). */
export declare function listLostReasons(db: Executor, accountId: number, page: PageRequest): Promise<ListResult<LostReasonUsageView>>;
export {};
