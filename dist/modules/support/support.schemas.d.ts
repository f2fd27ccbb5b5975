import { Type, type Static } from 'typebox';
export declare const TICKET_STATUSES: readonly ['open', 'pending', 'closed'];
export declare const TICKET_SORTS: string[];
export declare const LOG_SORTS: string[];
export declare const Ticket: Type.TObject<{
    id: Type.TInteger;
    org_id: Type.TInteger;
    contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    title: Type.TString;
    details: Type.TString;
    status: Type.TEnum<["open", "pending", "closed"]>;
    channel: Type.TString;
    external_reference: Type.TUnion<[Type.TString, Type.TNull]>;
    metadata: Type.TUnion<[Type.TObject<{}>, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
    closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
}>;
export type TicketView = Static<typeof Ticket>;
export declare const SupportLog: Type.TObject<{
    id: Type.TInteger;
    ticket_id: Type.TInteger;
    note: Type.TString;
    channel: Type.TString;
    author_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    created_at: Type.TString;
}>;
export type SupportLogView = Static<typeof SupportLog>;
export declare const TicketCreated: Type.TObject<{
    id: Type.TInteger;
    org_id: Type.TInteger;
    contact_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    owner_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    title: Type.TString;
    details: Type.TString;
    status: Type.TEnum<["open", "pending", "closed"]>;
    channel: Type.TString;
    external_reference: Type.TUnion<[Type.TString, Type.TNull]>;
    metadata: Type.TUnion<[Type.TObject<{}>, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
    closed_at: Type.TUnion<[Type.TString, Type.TNull]>;
    first_log: Type.TRef<"SupportLog">;
}>;
export declare const TicketList: Type.TObject<{
    data: Type.TArray<Type.TRef<"Ticket">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const SupportLogList: Type.TObject<{
    data: Type.TArray<Type.TRef<"SupportLog">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const TicketListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<string[]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
    status: Type.TOptional<Type.TEnum<["open", "pending", "closed"]>>;
    open_only: Type.TOptional<Type.TEnum<["1", "0", "true", "false"]>>;
    org_id: Type.TOptional<Type.TInteger>;
    owner_user_id: Type.TOptional<Type.TInteger>;
    contact_id: Type.TOptional<Type.TInteger>;
    q: Type.TOptional<Type.TString>;
    created_from: Type.TOptional<Type.TString>;
    created_to: Type.TOptional<Type.TString>;
}>;
export type TicketListQueryT = Static<typeof TicketListQuery>;
export declare const LogListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<string[]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
}>;
export declare const TicketParams: Type.TObject<{
    id: Type.TInteger;
}>;
export declare const LogParams: Type.TObject<{
    id: Type.TInteger;
    log_id: Type.TInteger;
}>;
export declare const CreateTicketBody: Type.TObject<{
    source_app: Type.TString;
    external_org_id: Type.TOptional<Type.TString>;
    org_id: Type.TOptional<Type.TInteger>;
    title: Type.TString;
    details: Type.TString;
    contact_email: Type.TOptional<Type.TString>;
    contact_id: Type.TOptional<Type.TInteger>;
    contact_name: Type.TOptional<Type.TString>;
    org_name: Type.TOptional<Type.TString>;
    note: Type.TOptional<Type.TString>;
    channel: Type.TOptional<Type.TString>;
    external_reference: Type.TOptional<Type.TString>;
    metadata_json: Type.TOptional<Type.TObject<{}>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateTicketInput = Static<typeof CreateTicketBody>;
export declare const UpdateTicketBody: Type.TObject<{
    status: Type.TOptional<Type.TEnum<["open", "pending", "closed"]>>;
    owner_user_id: Type.TOptional<Type.TUnsafe<number | null>>;
    title: Type.TOptional<Type.TString>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type UpdateTicketInput = Static<typeof UpdateTicketBody>;
export declare const CreateLogBody: Type.TObject<{
    note: Type.TString;
    channel: Type.TOptional<Type.TString>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateLogInput = Static<typeof CreateLogBody>;
