import { Type, type Static } from 'typebox';
export declare const WebhookEndpoint: Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
    url: Type.TString;
    event_types: Type.TArray<Type.TString>;
    enabled: Type.TBoolean;
    disabled_reason: Type.TUnion<[Type.TString, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
}>;
export type WebhookEndpointView = Static<typeof WebhookEndpoint>;
export declare const WebhookEndpointWithSecret: Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
    url: Type.TString;
    event_types: Type.TArray<Type.TString>;
    enabled: Type.TBoolean;
    disabled_reason: Type.TUnion<[Type.TString, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
    secret: Type.TString;
}>;
export declare const RotatedEndpoint: Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
    url: Type.TString;
    event_types: Type.TArray<Type.TString>;
    enabled: Type.TBoolean;
    disabled_reason: Type.TUnion<[Type.TString, Type.TNull]>;
    created_at: Type.TString;
    updated_at: Type.TString;
    secret: Type.TString;
    previous_secret_expires_at: Type.TString;
}>;
export declare const CreateEndpointBody: Type.TObject<{
    name: Type.TString;
    url: Type.TString;
    event_types: Type.TArray<Type.TString>;
    enabled: Type.TOptional<Type.TBoolean>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;
export declare const UpdateEndpointBody: Type.TObject<{
    name: Type.TOptional<Type.TString>;
    url: Type.TOptional<Type.TString>;
    event_types: Type.TOptional<Type.TArray<Type.TString>>;
    enabled: Type.TOptional<Type.TBoolean>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;
export declare const EmptyWriteBody: Type.TObject<{
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export declare const RecoverBody: Type.TObject<{
    since: Type.TString;
    until: Type.TOptional<Type.TString>;
    idempotency_key: Type.TOptional<Type.TString>;
}>;
export declare const RecoverResult: Type.TObject<{
    requeued: Type.TInteger;
}>;
export declare const EndpointListQuery: Type.TObject<{
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
}>;
export declare const EndpointList: Type.TObject<{
    data: Type.TArray<Type.TRef<"WebhookEndpoint">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
export declare const WebhookDelivery: Type.TObject<{
    id: Type.TInteger;
    endpoint_id: Type.TInteger;
    event_id: Type.TString;
    event_type: Type.TString;
    status: Type.TString;
    attempts: Type.TInteger;
    next_attempt_at: Type.TUnion<[Type.TString, Type.TNull]>;
    response_status: Type.TUnion<[Type.TInteger, Type.TNull]>;
    error: Type.TUnion<[Type.TString, Type.TNull]>;
    duration_ms: Type.TUnion<[Type.TInteger, Type.TNull]>;
    created_at: Type.TString;
    last_attempt_at: Type.TUnion<[Type.TString, Type.TNull]>;
    test: Type.TBoolean;
}>;
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;
export declare const WebhookAttempt: Type.TObject<{
    id: Type.TInteger;
    attempt_number: Type.TInteger;
    trigger: Type.TString;
    status_code: Type.TInteger;
    error: Type.TUnion<[Type.TString, Type.TNull]>;
    response_body: Type.TUnion<[Type.TString, Type.TNull]>;
    duration_ms: Type.TInteger;
    requested_at: Type.TString;
}>;
export declare const WebhookDeliveryDetail: Type.TObject<{
    id: Type.TInteger;
    endpoint_id: Type.TInteger;
    event_id: Type.TString;
    event_type: Type.TString;
    status: Type.TString;
    attempts: Type.TInteger;
    next_attempt_at: Type.TUnion<[Type.TString, Type.TNull]>;
    response_status: Type.TUnion<[Type.TInteger, Type.TNull]>;
    error: Type.TUnion<[Type.TString, Type.TNull]>;
    duration_ms: Type.TUnion<[Type.TInteger, Type.TNull]>;
    created_at: Type.TString;
    last_attempt_at: Type.TUnion<[Type.TString, Type.TNull]>;
    test: Type.TBoolean;
    attempts_log: Type.TArray<Type.TRef<"WebhookAttempt">>;
    payload: Type.TObject<{}>;
    request_headers: Type.TRecord<"^.*$", Type.TString>;
}>;
export declare const DeliveryListQuery: Type.TObject<{
    event_type: Type.TOptional<Type.TString>;
    status: Type.TOptional<Type.TString>;
    endpoint_id: Type.TOptional<Type.TInteger>;
    from: Type.TOptional<Type.TString>;
    to: Type.TOptional<Type.TString>;
    limit: Type.TOptional<Type.TInteger>;
    page: Type.TOptional<Type.TInteger>;
    per_page: Type.TOptional<Type.TInteger>;
    direction: Type.TOptional<Type.TString>;
}>;
export type DeliveryListQueryInput = Static<typeof DeliveryListQuery>;
export declare const DeliveryList: Type.TObject<{
    data: Type.TArray<Type.TRef<"WebhookDelivery">>;
    pagination: typeof import("../../http/schemas.ts").PaginationSchema;
}>;
