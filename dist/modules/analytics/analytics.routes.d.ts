import type { TSchema } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const analyticsSchemas: TSchema[];
export declare function registerAnalyticsRoutes(app: App, deps: ModuleDeps): void;
