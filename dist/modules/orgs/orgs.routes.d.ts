import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const orgSchemas: (Type.TObject<{
    source_app: Type.TString;
    external_org_id: Type.TString;
}> | Type.TObject<{
    id: Type.TInteger;
    name: Type.TString;
    domain: Type.TUnion<[Type.TString, Type.TNull]>;
    external_ids: Type.TArray<Type.TRef<"ExternalId">>;
    created_at: Type.TString;
    updated_at: Type.TString;
}>)[];
export declare function registerOrgRoutes(app: App, deps: ModuleDeps): void;
