import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { engineOf } from '../../db/engine.ts';
import { endUserSessions } from '../sessions/sessions.service.ts';
import { getUser } from '../users/users.service.ts';
import type { UserView } from '../users/users.schemas.ts';
import type { UpdateUserInput } from './team.schemas.ts';

export interface Actor {
  userId: number;
  role: 'owner' | 'admin' | 'member';
}

/**
 * Team management by a signed-in owner or admin. Only an owner makes someone an owner or changes
 * an owner (role or activity); the last active owner can be neither demoted nor deactivated;
 * nobody changes their own role or deactivates themselves (another owner or admin does).
 * Deactivation ends the user's sessions in the same transaction.
 */
export async function updateTeamUser(deps: { db: Db; clock: Clock }, accountId: number, actor: Actor, id: number, input: UpdateUserInput): Promise<UserView> {
  return deps.db.transaction().execute(async (trx) => {
    // The account's owners are locked (PostgreSQL) so two concurrent demotions cannot both pass the last-owner check.
    const owners = await engineOf(trx)
      .forUpdate(trx.selectFrom('users').select(['id', 'is_active']).where('account_id', '=', accountId).where('role', '=', 'owner'))
      .execute();
    const target = await trx
      .selectFrom('users')
      .select(['id', 'role', 'is_active'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!target) throw notFound('user_not_found', id);
    const roleChanges = input.role !== undefined && input.role !== target.role;
    const deactivates = input.is_active === false && Boolean(target.is_active);
    if ((roleChanges || input.is_active === false) && id === actor.userId) {
      throw new AppError('conflict', 'You cannot change your own role or deactivate yourself; another owner or admin can.');
    }
    if ((target.role === 'owner' || input.role === 'owner') && (roleChanges || input.is_active !== undefined) && actor.role !== 'owner') {
      throw new AppError('forbidden', 'Only an owner can make someone an owner or change an owner.');
    }
    if (target.role === 'owner' && target.is_active && ((roleChanges && input.role !== 'owner') || deactivates)) {
      const otherActive = owners.filter((o) => Number(o.id) !== id && Boolean(o.is_active));
      if (otherActive.length === 0) throw new AppError('conflict', 'This is the last active owner: make another user an owner first.');
    }
    const now = deps.clock.now();
    await trx
      .updateTable('users')
      .set({
        ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
        ...(input.support_enabled !== undefined ? { support_enabled: input.support_enabled } : {}),
        updated_at: now,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
    if (input.is_active === false) await endUserSessions(trx, id);
    return getUser(trx, accountId, id);
  });
}
