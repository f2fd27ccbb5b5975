import type { FastifyRequest } from 'fastify';
import { type UnavailableReason } from '../db/faults.ts';
import { AppError, type ErrorCode } from '../lib/errors.ts';
import type { App } from './types.ts';
interface ErrorBody {
    error: ErrorCode;
    message: string;
    fields?: Record<string, string>;
    request_id: string;
    [extra: string]: unknown;
}
export declare function errorBody(request: FastifyRequest, error: AppError): ErrorBody;
export declare function registerErrorHandling(app: App, routePatterns: () => RoutePatterns, onUnavailable?: (err: unknown, reason: UnavailableReason) => void): void;
/** Each route path (by its pattern) with its methods and a regular expression for concrete paths. */
export type RoutePatterns = Map<string, {
    regex: RegExp;
    static: boolean;
    methods: Set<string>;
}>;
/** Collects each route's path as a regular expression, so an unmatched request can tell 404 from 405. */
export declare function collectRoutePatterns(app: App): () => RoutePatterns;
export {};
