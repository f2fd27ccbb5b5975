import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const activitySchemas: (import("typebox").TObject<{
    id: import("typebox").TInteger;
    display_name: import("typebox").TString;
    email: import("typebox").TString;
}> | import("typebox").TObject<{
    org_id: import("typebox").TInteger;
    name: import("typebox").TString;
    contact: import("typebox").TUnion<[import("typebox").TObject<{
        id: import("typebox").TInteger;
        name: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
        email: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    }>, import("typebox").TNull]>;
}> | import("typebox").TObject<{
    id: import("typebox").TString;
    type: import("typebox").TEnum<["note", "email", "call", "meeting", "support_log"]>;
    source: import("typebox").TEnum<["timeline", "support_log"]>;
    content: import("typebox").TString;
    employee: import("typebox").TUnion<[import("typebox").TRef<"ActivityEmployee">, import("typebox").TNull]>;
    customer: import("typebox").TUnion<[import("typebox").TRef<"ActivityCustomer">, import("typebox").TNull]>;
    deal_id: import("typebox").TUnion<[import("typebox").TInteger, import("typebox").TNull]>;
    ticket_id: import("typebox").TUnion<[import("typebox").TInteger, import("typebox").TNull]>;
    outcome: import("typebox").TUnion<[import("typebox").TEnum<["success", "failed", "skipped"]>, import("typebox").TNull]>;
    channel: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    occurred_at: import("typebox").TString;
    created_at: import("typebox").TString;
}>)[];
export declare function registerActivityRoutes(app: App, deps: ModuleDeps): void;
