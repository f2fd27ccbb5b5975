import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';
export type DeliveryRow = Selectable<WebhookDeliveriesTable> & {
    event_public_id: string;
};
export type AttemptRow = Selectable<WebhookAttemptsTable>;
export interface DeliveryFilter {
    eventType?: string;
    status?: DeliveryStatus;
    endpointId?: number;
    from: number | null;
    to: number | null;
}
export declare function countDeliveries(db: Executor, accountId: number, f: DeliveryFilter): Promise<number>;
export declare function listDeliveries(db: Executor, accountId: number, f: DeliveryFilter, dir: 'asc' | 'desc', limit: number, offset: number): Promise<DeliveryRow[]>;
export declare function findDelivery(db: Executor, accountId: number, id: number): Promise<DeliveryRow | undefined>;
export declare function attemptsOf(db: Executor, accountId: number, deliveryId: number): Promise<AttemptRow[]>;
/** Asks for an attempt now, marked manual. */
export declare function requeueDelivery(db: Executor, accountId: number, id: number, now: number): Promise<void>;
/** Re-queues an endpoint's failed deliveries created in [since, until]. */
export declare function requeueFailed(db: Executor, accountId: number, endpointId: number, since: number, until: number, now: number): Promise<number>;
export declare function payloadOf(db: Executor, accountId: number, eventId: number): Promise<string>;
