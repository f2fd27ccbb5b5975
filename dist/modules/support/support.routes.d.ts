import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const supportSchemas: (Type.TObject<{
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
}> | Type.TObject<{
    id: Type.TInteger;
    ticket_id: Type.TInteger;
    note: Type.TString;
    channel: Type.TString;
    author_user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
    created_at: Type.TString;
}>)[];
export declare function registerSupportRoutes(app: App, deps: ModuleDeps): void;
