import type { App } from '../../http/types.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { writeRoute } from '../../http/write-routes.ts';
import { AppError } from '../../lib/errors.ts';
import { CreateUserBody, User, UserList, UserListQuery } from './users.schemas.ts';
import * as service from './users.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const userSchemas = [User];

export function registerUserRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/users', {
    scope: 'users:read',
    errors: [],
    operationId: 'listUsers',
    summary: 'List team users',
    description: 'The team members of the account, newest first by default.',
    tags: ['users'],
    querystring: UserListQuery,
    response: UserList,
    list: (accountId, q, page) => {
      const activeOnly = q.active_only === '1' || q.active_only === 'true';
      const order = { sort: q.sort ?? 'created_at', direction: q.direction ?? 'desc' } as const;
      return service.listUsers(deps.db, accountId, { activeOnly }, order, page);
    },
  });

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

  writeRoute(app, '/users', {
    method: 'POST',
    scope: '*',
    role: 'admin',
    errors: ['conflict'],
    operationId: 'createUser',
    summary: 'Create a team user',
    description: 'Adds a team member. A duplicate e-mail in the account (compared case-insensitively) is 409 `conflict`.',
    tags: ['extensions'],
    body: CreateUserBody,
    status: 201,
    response: User,
    write: ({ auth, accountId, body, claim }) => {
      if (auth.session && body.role === 'owner' && auth.session.role !== 'owner') {
        throw new AppError('forbidden', 'Only an owner can make someone an owner.');
      }
      return service.createUser(deps, accountId, body, claim);
    },
  });
}
