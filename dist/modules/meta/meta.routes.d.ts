import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { type Dependencies } from './dependencies.ts';
/**
 * Liveness (the process answers), readiness (the database answers a query now; the rate-limit
 * backend is reported alongside) and the OpenAPI document: no key needed.
 */
export declare function registerMetaRoutes(app: App, _deps: ModuleDeps, dependencies: Dependencies): void;
