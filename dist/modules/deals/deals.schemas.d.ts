import { Type, type Static } from 'typebox';
export declare const DEAL_STATUSES: readonly ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
export declare const OPEN_STATUSES: readonly ['new', 'qualified', 'proposal', 'negotiation'];
export declare const ACTIVITY_KINDS: readonly ['note', 'email', 'call', 'meeting'];
export declare const OUTCOMES: readonly ['success', 'failed', 'skipped'];
export declare const Deal: Type.TObject<{
    id: Type.TInteger;
    org_id: Type.TInteger;
    contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    title: Type.TString;
    status: Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>;
    value: Type.TUnion<[Type.TString, Type.TNull]>;
    currency: Type.TUnion<[Type.TString, Type.TNull]>;
    payment_customer_id: Type.TUnion<[Type.TString, Type.TNull]>;
    next_followup_at: Type.TUnion<[Type.TString, Type.TNull]>;
    lost_reason: Type.TUnion<[Type.TObject<{
        code: Type.TString;
        label: Type.TString;
    }>, Type.TNull]>;
    closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
    closed_by_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    last_activity_at: Type.TString;
    created_at: Type.TString;
    updated_at: Type.TString;
}>;
export type DealView = Static<typeof Deal>;
export declare const DealActivity: Type.TObject<{
    id: Type.TInteger;
    deal_id: Type.TInteger;
    event_type: Type.TEnum<["note", "email", "call", "meeting"]>;
    message: Type.TString;
    outcome: Type.TUnion<[Type.TEnum<["success", "failed", "skipped"]>, Type.TNull]>;
    source_app: Type.TUnion<[Type.TString, Type.TNull]>;
    external_reference: Type.TUnion<[Type.TString, Type.TNull]>;
    metadata: Type.TUnion<[Type.TObject<{}>, Type.TNull]>;
    user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    created_at: Type.TString;
}>;
export type DealActivityView = Static<typeof DealActivity>;
export declare const DealList: Type.TObject<{
    data: Type.TArray<Type.TRef<"Deal">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const DealActivityList: Type.TObject<{
    data: Type.TArray<Type.TRef<"DealActivity">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const DealListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<["created_at", "updated_at", "id", "title", "status"]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
    status: Type.TOptional<Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>>;
    org_id: Type.TOptional<Type.TInteger>;
    owner_user_id: Type.TOptional<Type.TInteger>;
    contact_id: Type.TOptional<Type.TInteger>;
    q: Type.TOptional<Type.TString>;
    created_from: Type.TOptional<Type.TString>;
    created_to: Type.TOptional<Type.TString>;
    updated_from: Type.TOptional<Type.TString>;
    updated_to: Type.TOptional<Type.TString>;
}>;
export type DealListQueryT = Static<typeof DealListQuery>;
export declare const DealSearchQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    payment_customer_id: Type.TOptional<Type.TString>;
    contact_email: Type.TOptional<Type.TString>;
    org_id: Type.TOptional<Type.TInteger>;
}>;
export type DealSearchQueryT = Static<typeof DealSearchQuery>;
export declare const ActivityListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<["created_at", "id"]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
}>;
export declare const ActivityParams: Type.TObject<{
    id: Type.TInteger;
    activity_id: Type.TInteger;
}>;
export declare const CreateDealBody: Type.TObject<{
    org_id: Type.TInteger;
    title: Type.TString;
    status: Type.TOptional<Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>>;
    contact_id: Type.TOptional<Type.TUnion<[Type.TInteger, Type.TNull]>>;
    owner_user_id: Type.TOptional<Type.TUnion<[Type.TInteger, Type.TNull]>>;
    value: Type.TOptional<Type.TUnion<[Type.TUnion<[Type.TString, Type.TNumber]>, Type.TNull]>>;
    currency: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    payment_customer_id: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    next_followup_at: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    lost_reason: Type.TOptional<Type.TUnion<[Type.TObject<{
        code: Type.TString;
        label: Type.TString;
    }>, Type.TNull]>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateDealInput = Static<typeof CreateDealBody>;
export declare const PatchDealBody: Type.TObject<{
    status: Type.TOptional<Type.TEnum<["new", "qualified", "proposal", "negotiation", "won", "lost"]>>;
    owner_user_id: Type.TOptional<Type.TUnion<[Type.TInteger, Type.TNull]>>;
    contact_id: Type.TOptional<Type.TUnion<[Type.TInteger, Type.TNull]>>;
    title: Type.TOptional<Type.TString>;
    value: Type.TOptional<Type.TUnion<[Type.TUnion<[Type.TString, Type.TNumber]>, Type.TNull]>>;
    currency: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    next_followup_at: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    lost_reason: Type.TOptional<Type.TUnion<[Type.TObject<{
        code: Type.TString;
        label: Type.TString;
    }>, Type.TNull]>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type PatchDealInput = Static<typeof PatchDealBody>;
export declare const CreateActivityBody: Type.TObject<{
    source_app: Type.TString;
    message: Type.TString;
    activity_kind: Type.TOptional<Type.TEnum<["note", "email", "call", "meeting"]>>;
    outcome: Type.TOptional<Type.TEnum<["success", "failed", "skipped"]>>;
    external_reference: Type.TOptional<Type.TString>;
    metadata_json: Type.TOptional<Type.TObject<{}>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateActivityInput = Static<typeof CreateActivityBody>;
