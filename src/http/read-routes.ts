import type { Static, TSchema } from 'typebox';
import type { ScopeRequirement } from '../modules/api-keys/scopes.ts';
import type { ErrorCode } from '../lib/errors.ts';
import { pageOf, type PageRequest } from '../lib/pagination.ts';
import type { App } from './types.ts';

/** What every declared route states: its access, its own errors and its OpenAPI description. */
export interface DeclaredRoute {
  scope: ScopeRequirement;
  /** Route-specific errors (an id of another account, in the path, a filter or the body, is its `<thing>_not_found`). */
  errors: ErrorCode[];
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
}

export interface ListRoute<Q extends TSchema, P extends TSchema> extends DeclaredRoute {
  params?: P;
  /** The filters, sort and `page`/`per_page`. */
  querystring: Q;
  /** The page of records: `{data, pagination}`. */
  response: TSchema;
  /** The one service call: the caller's account, the decoded query, its page, the path parameters. */
  list: (accountId: number, query: Static<Q>, page: PageRequest, params: Static<P>) => Promise<unknown>;
}

/**
 * `GET` of a paginated list, declared the way every list of the API is: scope and errors, the
 * OpenAPI description, the query schema, and one service call with the page read from the query.
 */
export function listRoute<Q extends TSchema, P extends TSchema = TSchema>(app: App, path: string, route: ListRoute<Q, P>): void {
  app.get(
    path,
    {
      config: { scope: route.scope, errors: route.errors },
      schema: {
        operationId: route.operationId,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: route.tags,
        ...(route.params ? { params: route.params } : {}),
        querystring: route.querystring,
        response: { 200: route.response },
      },
    },
    async (request) => {
      const query = request.query as Static<Q> & { page?: number; per_page?: number };
      return route.list(request.auth.accountId, query, pageOf(query), request.params as Static<P>);
    },
  );
}

export interface RecordRoute<P extends TSchema> {
  scope: ScopeRequirement;
  /** The `<thing>_not_found` of each record the path names. */
  errors: ErrorCode[];
  operationId: string;
  summary: string;
  tags: string[];
  params: P;
  response: TSchema | { $ref: string };
  /** The one service call: the caller's account and the path parameters. */
  get: (accountId: number, params: Static<P>) => Promise<unknown>;
}

/** `GET` of one record named by the path, declared the way every such read of the API is. */
export function recordRoute<P extends TSchema>(app: App, path: string, route: RecordRoute<P>): void {
  app.get(
    path,
    {
      config: { scope: route.scope, errors: route.errors },
      schema: { operationId: route.operationId, summary: route.summary, tags: route.tags, params: route.params, response: { 200: route.response } },
    },
    async (request) => route.get(request.auth.accountId, request.params as Static<P>),
  );
}
