import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WebhookEndpointsTable } from '../../db/schema.ts';
export type EndpointRow = Selectable<WebhookEndpointsTable>;
export declare function countEndpoints(db: Executor, accountId: number): Promise<number>;
export declare function listEndpoints(db: Executor, accountId: number, limit: number, offset: number): Promise<EndpointRow[]>;
export declare function findEndpoint(db: Executor, accountId: number, id: number, options?: {
    forUpdate?: boolean;
}): Promise<EndpointRow | undefined>;
export declare function insertEndpoint(db: Executor, values: Insertable<WebhookEndpointsTable>): Promise<EndpointRow>;
export declare function updateEndpoint(db: Executor, accountId: number, id: number, values: Updateable<WebhookEndpointsTable>): Promise<EndpointRow | undefined>;
/** Deliveries and their attempts go with the endpoint (foreign keys cascade). */
export declare function deleteEndpoint(db: Executor, accountId: number, id: number): Promise<boolean>;
/** Enabled endpoints of these accounts: the fan-out matches event types in JavaScript (stored as JSON). */
export declare function enabledEndpointsOf(db: Executor, accountIds: number[]): Promise<Pick<EndpointRow, 'id' | 'account_id' | 'event_types'>[]>;
