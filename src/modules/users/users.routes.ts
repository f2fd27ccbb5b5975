import type { App } from '../../http/types.ts';
import { recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { answer } from '../../http/answer.ts';
import { pageOf } from '../../lib/pagination.ts';
import { AppError } from '../../lib/errors.ts';
import { CreateUserBody, User, UserList, UserListQuery } from './users.schemas.ts';
import * as service from './users.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const userSchemas = [User];

export function registerUserRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/users',
    {
      config: { scope: 'users:read' },
      schema: {
        operationId: 'listUsers',
        summary: 'List team users',
        description: 'The team members of the account, newest first by default.',
        tags: ['users'],
        querystring: UserListQuery,
        response: { 200: UserList },
      },
    },
    async (request) => {
      const q = request.query;
      const activeOnly = q.active_only === '1' || q.active_only === 'true';
      const order = { sort: q.sort ?? 'created_at', direction: q.direction ?? 'desc' } as const;
      return service.listUsers(deps.db, request.auth.accountId, { activeOnly }, order, pageOf(q));
    },
  );

  recordRoute(app, '/users/:id', {
    scope: 'users:read',
    errors: ['user_not_found'],
    operationId: 'getUser',
    summary: 'Get one team user',
    tags: ['users'],
    params: IdParams,
    response: User,
    get: (accountId, params) => service.getUser(deps.db, accountId, params.id),
  });

  app.post(
    '/users',
    {
      config: { scope: '*', role: 'admin', errors: ['conflict'] },
      schema: {
        operationId: 'createUser',
        summary: 'Create a team user',
        description: 'Adds a team member. A duplicate e-mail in the account (compared case-insensitively) is 409 `conflict`.',
        tags: ['extensions'],
        body: CreateUserBody,
        response: { 201: User },
      },
    },
    async (request, reply) => {
      const session = request.auth.session;
      if (session && request.body.role === 'owner' && session.role !== 'owner') {
        throw new AppError('forbidden', 'Only an owner can make someone an owner.');
      }
      return answer(request, reply, await service.createUser(deps, request.auth.accountId, request.body, request.idempotency));
    },
  );
}
