import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** The timeline of a deal: list, read one, log one. */
export declare function registerActivityRoutes(app: App, deps: ModuleDeps): void;
