import type { Static, TSchema } from 'typebox';
import type { IdempotencyClaim } from '../lib/write.ts';
import { answer } from './answer.ts';
import { optionalBody } from './json-body.ts';
import type { DeclaredRoute } from './read-routes.ts';
import type { App, AuthContext } from './types.ts';

export interface WriteInput<B extends TSchema, P extends TSchema> {
  /** The caller as authenticated: its key, or its console session and role. */
  auth: AuthContext;
  accountId: number;
  /** Who acts: the account, and the console user (null for an API key). */
  actor: { accountId: number; userId: number | null };
  body: Static<B>;
  params: Static<P>;
  claim: IdempotencyClaim | null;
}

export interface WriteRoute<B extends TSchema, P extends TSchema> extends DeclaredRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `admin`: a console session needs the role owner or admin. */
  role?: 'admin';
  params?: P;
  body?: B;
  /** Routes whose body may be left out: no body at all is the same as `{}`. */
  optionalBody?: boolean;
  status: 200 | 201 | 202 | 204;
  response: TSchema | { $ref: string };
  /** The one service call, run through the write path; its result is the answer. */
  write: (input: WriteInput<B, P>) => Promise<unknown>;
}

/**
 * A change, declared the way every write of the API is: scope (and role) and errors, the OpenAPI
 * description, the path and body schemas, and one service call given the idempotency claim, whose
 * result is answered with the route's status (`http/answer.ts`).
 */
export function writeRoute<B extends TSchema = TSchema, P extends TSchema = TSchema>(app: App, path: string, route: WriteRoute<B, P>): void {
  app.route({
    method: route.method,
    url: path,
    config: { scope: route.scope, ...(route.role ? { role: route.role } : {}), errors: route.errors },
    ...(route.optionalBody ? { preValidation: optionalBody } : {}),
    schema: {
      operationId: route.operationId,
      ...(route.optionalBody ? { 'x-body-optional': true } : {}),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(route.params ? { params: route.params } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: { [route.status]: route.response },
    },
    handler: async (request, reply) => {
      const accountId = request.auth.accountId;
      const input = {
        auth: request.auth,
        accountId,
        actor: { accountId, userId: request.auth.session?.userId ?? null },
        body: request.body as Static<B>,
        params: request.params as Static<P>,
        claim: request.idempotency,
      };
      return answer(request, reply, await route.write(input));
    },
  });
}
