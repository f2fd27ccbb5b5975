import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const userSchemas: import("typebox").TObject<{
    id: import("typebox").TInteger;
    email: import("typebox").TString;
    display_name: import("typebox").TString;
    role: import("typebox").TEnum<["owner", "admin", "member"]>;
    is_active: import("typebox").TBoolean;
    support_enabled: import("typebox").TBoolean;
    created_at: import("typebox").TString;
}>[];
export declare function registerUserRoutes(app: App, deps: ModuleDeps): void;
