import type { TSchema } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export declare const webhookSchemas: TSchema[];
export declare function registerWebhookRoutes(app: App, deps: ModuleDeps): void;
/**
 * `GET /metrics` (Prometheus text format, the metrics token, outside /api/v1): delivery counts by status,
 * queue depth and oldest due age from the database, plus this process's attempt counters and latency.
 */
export declare function registerMetricsRoute(app: App, deps: ModuleDeps, options: {
    onRequest: (request: FastifyRequest) => Promise<void>;
    registries: Registry[];
}): void;
