import { Type, type Static } from 'typebox';
export declare const Contact: Type.TObject<{
    id: Type.TInteger;
    org_id: Type.TInteger;
    name: Type.TUnion<[Type.TString, Type.TNull]>;
    email: Type.TUnion<[Type.TString, Type.TNull]>;
    phone: Type.TUnion<[Type.TString, Type.TNull]>;
    title: Type.TUnion<[Type.TString, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
}>;
export type ContactView = Static<typeof Contact>;
export declare const MarketingAudience: Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
}>;
export type AudienceView = Static<typeof MarketingAudience>;
export declare const CONTACT_SORTS: readonly ['created_at', 'updated_at', 'id'];
export declare const ContactListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<["created_at", "updated_at", "id"]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
    org_id: Type.TOptional<Type.TInteger>;
    email: Type.TOptional<Type.TString>;
    q: Type.TOptional<Type.TString>;
}>;
export declare const ContactList: Type.TObject<{
    data: Type.TArray<Type.TRef<"Contact">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const AudienceList: Type.TObject<{
    data: Type.TArray<Type.TRef<"MarketingAudience">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const AudienceListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
}>;
export declare const CreateContactBody: Type.TObject<{
    org_id: Type.TInteger;
    name: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    email: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    phone: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    title: Type.TOptional<Type.TUnion<[Type.TString, Type.TNull]>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateContactInput = Static<typeof CreateContactBody>;
export declare const CreateAudienceBody: Type.TObject<{
    name: Type.TString;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
/** A contact can be in at most this many audiences, so a membership answer always fits one page. */
export declare const MAX_MEMBERSHIPS = 100;
export declare const ReplaceMembershipsBody: Type.TObject<{
    audience_ids: Type.TArray<Type.TInteger>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export declare const RemoveMembershipsBody: Type.TObject<{
    audience_ids: Type.TOptional<Type.TArray<Type.TInteger>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
