import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Status history of a deal and the account's lost reasons: what the console's board and deal page read. */
export declare function registerDealHistoryRoutes(app: App, deps: ModuleDeps): void;
