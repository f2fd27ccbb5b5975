import { Type, type TSchema } from 'typebox';
/** Shared schemas, each registered once by id so the OpenAPI document references rather than repeats them. */
export declare const ErrorResponse: Type.TObject<{
    error: Type.TString;
    message: Type.TString;
    fields: Type.TOptional<Type.TObject<{}>>;
    required_scopes: Type.TOptional<Type.TArray<Type.TString>>;
    request_id: Type.TString;
}>;
export declare const PaginationSchema: Type.TObject<{
    page: Type.TInteger;
    per_page: Type.TInteger;
    total: Type.TInteger;
    pages: Type.TInteger;
    has_next: Type.TBoolean;
    has_prev: Type.TBoolean;
}>;
export declare const Timestamp: (description?: string) => Type.TString;
export declare const NullableTimestamp: (description?: string) => Type.TUnion<[Type.TString, Type.TNull]>;
export declare const Nullable: <T extends TSchema>(schema: T) => Type.TUnion<[T, Type.TNull]>;
export declare const Id: (description?: string) => Type.TInteger;
/** A date bound: `YYYY-MM-DD` (a whole UTC day) or an ISO-8601 date-time with or without Z. Checked by parseDateBound. */
export declare const DateParam: (description: string) => Type.TString;
export declare const PageQuery: {
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
};
export declare const SortQuery: <const T extends string[]>(fields: [...T]) => {
    sort: Type.TOptional<Type.TEnum<T>>;
    direction: Type.TOptional<Type.TEnum<["asc", "desc"]>>;
};
export declare const IdParams: Type.TObject<{
    id: Type.TInteger;
}>;
export declare function ListOf<T extends TSchema>(item: T, title: string): Type.TObject<{
    data: Type.TArray<T>;
    pagination: typeof PaginationSchema;
}>;
/** Opaque caller-owned JSON object. */
export declare const Metadata: Type.TObject<{}>;
