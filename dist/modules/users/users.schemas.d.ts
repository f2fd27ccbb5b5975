import { Type, type Static } from 'typebox';
export declare const ROLES: readonly ['owner', 'admin', 'member'];
export declare const User: Type.TObject<{
    id: Type.TInteger;
    email: Type.TString;
    display_name: Type.TString;
    role: Type.TEnum<["owner", "admin", "member"]>;
    is_active: Type.TBoolean;
    support_enabled: Type.TBoolean;
    created_at: Type.TString;
}>;
export type UserView = Static<typeof User>;
export declare const USER_SORTS: readonly ['created_at', 'id'];
export declare const UserListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    sort: Type.TOptional<Type.TEnum<["created_at", "id"]>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
    active_only: Type.TOptional<Type.TEnum<["1", "0", "true", "false"]>>;
}>;
export declare const UserList: Type.TObject<{
    data: Type.TArray<Type.TRef<"User">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const CreateUserBody: Type.TObject<{
    email: Type.TString;
    display_name: Type.TString;
    role: Type.TOptional<Type.TEnum<["owner", "admin", "member"]>>;
    is_active: Type.TOptional<Type.TBoolean>;
    support_enabled: Type.TOptional<Type.TBoolean>;
    password: Type.TOptional<Type.TString>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateUserInput = Static<typeof CreateUserBody>;
