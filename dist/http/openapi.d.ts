import type { App } from './types.ts';
export declare const API_PREFIX = "/api/v1";
export declare const TAGS: {
    name: string;
    description: string;
}[];
/**
 * Adds what every route shares to its schema before Fastify compiles it: the bearer security
 * requirement, the required scope (stated once in the description, and as `x-required-scopes`),
 * the error responses and a description of each success response, so the document can never
 * forget them.
 */
export declare function decorateRouteSchemas(app: App): void;
export declare function registerOpenApi(app: App, version: string): Promise<void>;
