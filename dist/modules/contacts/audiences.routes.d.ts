import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** The account's marketing audiences (memberships are under /contacts/{id}/marketing-audiences). */
export declare function registerAudienceRoutes(app: App, deps: ModuleDeps): void;
