import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { User } from '../users/users.schemas.ts';
import { UpdateUserBody } from './team.schemas.ts';
import { updateTeamUser } from './team.service.ts';

export function registerTeamRoutes(app: App, deps: ModuleDeps): void {
  app.patch(
    '/users/:id',
    {
      config: { scope: null, session: 'only', role: 'admin', errors: ['user_not_found', 'conflict'] },
      schema: {
        operationId: 'updateUser',
        summary: 'Change a team user: role, active, display name, support',
        description:
          'Team management. Only an owner can make someone an owner or change an owner (403 `forbidden`). The last active ' +
          'owner can be neither demoted nor deactivated, and nobody changes their own role or deactivates themselves (409 ' +
          "`conflict`). `is_active: false` ends the user's console sessions at once.",
        tags: ['console'],
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: User },
      },
    },
    async (request) => {
      const s = request.auth.session!;
      return updateTeamUser(deps, request.auth.accountId, { userId: s.userId, role: s.role }, request.params.id, request.body);
    },
  );
}
