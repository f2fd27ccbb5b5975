import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const contactSchemas: (import("typebox").TObject<{
    id: import("typebox").TInteger;
    org_id: import("typebox").TInteger;
    name: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    email: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    phone: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    title: import("typebox").TUnion<[import("typebox").TString, import("typebox").TNull]>;
    created_at: import("typebox").TString;
    updated_at: import("typebox").TString;
}> | import("typebox").TObject<{
    id: import("typebox").TInteger;
    name: import("typebox").TString;
}>)[];
export declare function registerContactRoutes(app: App, deps: ModuleDeps): void;
