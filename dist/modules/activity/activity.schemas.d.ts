import { Type, type Static } from 'typebox';
/** Every value `source` accepts: `sales` is an alias of `timeline`, `support` of `support_log`. */
export declare const SOURCE_PARAMS: readonly ['all', 'timeline', 'sales', 'support_log', 'support'];
export type SourceParam = (typeof SOURCE_PARAMS)[number];
export type ActivitySource = 'timeline' | 'support_log';
/** Rows taken from each source, newest first, before the merged feed is paginated. */
export declare const ACTIVITY_CAP_PER_SOURCE = 500;
export declare const ActivityEmployee: Type.TObject<{
    id: Type.TInteger;
    display_name: Type.TString;
    email: Type.TString;
}>;
export declare const ActivityCustomer: Type.TObject<{
    org_id: Type.TInteger;
    name: Type.TString;
    contact: Type.TUnion<[Type.TObject<{
        id: Type.TInteger;
        name: Type.TUnion<[Type.TString, Type.TNull]>;
        email: Type.TUnion<[Type.TString, Type.TNull]>;
    }>, Type.TNull]>;
}>;
export declare const ActivityItem: Type.TObject<{
    id: Type.TString;
    type: Type.TEnum<["note", "email", "call", "meeting", "support_log"]>;
    source: Type.TEnum<["timeline", "support_log"]>;
    content: Type.TString;
    employee: Type.TUnion<[Type.TRef<"ActivityEmployee">, Type.TNull]>;
    customer: Type.TUnion<[Type.TRef<"ActivityCustomer">, Type.TNull]>;
    deal_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    ticket_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    outcome: Type.TUnion<[Type.TEnum<["success", "failed", "skipped"]>, Type.TNull]>;
    channel: Type.TUnion<[Type.TString, Type.TNull]>;
    occurred_at: Type.TString;
    created_at: Type.TString;
}>;
export type ActivityItemView = Static<typeof ActivityItem>;
export declare const ActivityListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    org_id: Type.TOptional<Type.TInteger>;
    employee_user_id: Type.TOptional<Type.TInteger>;
    user_id: Type.TOptional<Type.TInteger>;
    deal_id: Type.TOptional<Type.TInteger>;
    ticket_id: Type.TOptional<Type.TInteger>;
    source: Type.TOptional<Type.TEnum<["all", "timeline", "sales", "support_log", "support"]>>;
    from: Type.TOptional<Type.TString>;
    to: Type.TOptional<Type.TString>;
}>;
export type ActivityListQueryType = Static<typeof ActivityListQuery>;
export declare const ActivityList: Type.TObject<{
    data: Type.TArray<Type.TRef<"ActivityItem">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
