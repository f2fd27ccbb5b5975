import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Liveness, readiness and the OpenAPI document: no key needed. */
export declare function registerMetaRoutes(app: App, deps: ModuleDeps): void;
