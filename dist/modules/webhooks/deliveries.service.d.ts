import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ListResult } from '../../lib/pagination.ts';
import * as repo from './deliveries.repository.ts';
import type { DeliveryListQueryInput, WebhookDeliveryView } from './webhooks.schemas.ts';
export declare function toDeliveryView(r: repo.DeliveryRow): WebhookDeliveryView;
/** `limit` is an alias of `per_page`; with both, the smaller wins. */
export declare function listDeliveries(db: Db, accountId: number, q: DeliveryListQueryInput): Promise<ListResult<WebhookDeliveryView>>;
export declare function getDelivery(db: Db, accountId: number, id: number): Promise<{
    id: number;
    endpoint_id: number;
    event_id: string;
    event_type: string;
    status: string;
    attempts: number;
    next_attempt_at: string | null;
    response_status: number | null;
    error: string | null;
    duration_ms: number | null;
    created_at: string;
    last_attempt_at: string | null;
    test: boolean;
    attempts_log: {
        id: number;
        attempt_number: number;
        trigger: string;
        status_code: number;
        error: string | null;
        response_body: string | null;
        duration_ms: number;
        requested_at: string;
    }[];
    payload: Record<string, unknown>;
    request_headers: Record<string, string>;
}>;
/**
 * Queues one more attempt now, recorded with trigger `manual`, whatever the status (a sent
 * delivery is sent again). It counts against the retry schedule like any attempt.
 */
export declare function retryDelivery(deps: {
    db: Db;
    clock: Clock;
    notifyEvents: () => void;
}, accountId: number, id: number): Promise<{
    id: number;
    endpoint_id: number;
    event_id: string;
    event_type: string;
    status: string;
    attempts: number;
    next_attempt_at: string | null;
    response_status: number | null;
    error: string | null;
    duration_ms: number | null;
    created_at: string;
    last_attempt_at: string | null;
    test: boolean;
}>;
