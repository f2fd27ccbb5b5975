import { Type, type Static } from 'typebox';
export declare const ExternalId: Type.TObject<{
    source_app: Type.TString;
    external_org_id: Type.TString;
}>;
export declare const Org: Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
    domain: Type.TUnion<[Type.TString, Type.TNull]>;
    external_ids: Type.TArray<Type.TRef<"ExternalId">>;
    created_at: Type.TString;
    updated_at: Type.TString;
}>;
export type OrgView = Static<typeof Org>;
export declare const OrgListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    q: Type.TOptional<Type.TString>;
}>;
export declare const OrgList: Type.TObject<{
    data: Type.TArray<Type.TRef<"Org">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const OrgIdParams: Type.TObject<{
    org_id: Type.TInteger;
}>;
export declare const OrgPathParams: Type.TObject<{
    id: Type.TInteger;
}>;
export declare const ResolveBody: Type.TObject<{
    source_app: Type.TString;
    external_org_id: Type.TString;
    org_name: Type.TOptional<Type.TString>;
    contact_email: Type.TOptional<Type.TString>;
    contact_name: Type.TOptional<Type.TString>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type ResolveInput = Static<typeof ResolveBody>;
export declare const ResolveResult: Type.TObject<{
    status: Type.TEnum<["mapped", "linked"]>;
    org: Type.TRef<"Org">;
}>;
export declare const ExternalIdBody: Type.TObject<{
    source_app: Type.TString;
    external_org_id: Type.TString;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export declare const CreateOrgBody: Type.TObject<{
    name: Type.TString;
    domain: Type.TOptional<Type.TUnsafe<string | null>>;
    external_ids: Type.TOptional<Type.TArray<Type.TObject<{
        source_app: Type.TString;
        external_org_id: Type.TString;
    }>>>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateOrgInput = Static<typeof CreateOrgBody>;
