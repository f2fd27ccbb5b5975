import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './endpoints.repository.ts';
import type { CreateEndpointInput, UpdateEndpointInput, WebhookEndpointView } from './webhooks.schemas.ts';
import { type Resolver } from './url-check.ts';
export interface EndpointDeps {
    db: Db;
    config: Config;
    clock: Clock;
    notifyEvents: () => void;
    resolve?: Resolver;
}
/** The old secret keeps signing this long after a rotation. */
export declare const ROTATION_OVERLAP_MS: number;
export declare function toEndpointView(r: repo.EndpointRow): WebhookEndpointView;
export declare function listEndpoints(db: Db, accountId: number, page: PageRequest): Promise<ListResult<WebhookEndpointView>>;
export declare function getEndpoint(db: Db, accountId: number, id: number): Promise<WebhookEndpointView>;
export declare function createEndpoint(deps: EndpointDeps, accountId: number, input: CreateEndpointInput): Promise<{
    id: number;
    name: string;
    url: string;
    event_types: string[];
    enabled: boolean;
    disabled_reason: string | null;
    created_at: string;
    updated_at: string;
    secret: string;
}>;
export declare function updateEndpoint(deps: EndpointDeps, accountId: number, id: number, input: UpdateEndpointInput): Promise<WebhookEndpointView>;
export declare function deleteEndpoint(db: Db, accountId: number, id: number): Promise<void>;
export declare function rotateSecret(deps: EndpointDeps, accountId: number, id: number): Promise<{
    id: number;
    name: string;
    url: string;
    event_types: string[];
    enabled: boolean;
    disabled_reason: string | null;
    created_at: string;
    updated_at: string;
    secret: string;
    previous_secret_expires_at: string;
}>;
export declare function recoverEndpoint(deps: EndpointDeps, accountId: number, id: number, body: {
    since: string;
    until?: string;
}): Promise<{
    requeued: number;
}>;
