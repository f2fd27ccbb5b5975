import type { TSchema } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const dealSchemas: TSchema[];
export declare function registerDealRoutes(app: App, deps: ModuleDeps): void;
