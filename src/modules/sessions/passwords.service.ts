import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, type PasswordConfig } from '../../lib/crypto.ts';
import { endUserSessions } from './sessions.service.ts';
import { setPasswordHash } from './passwords.repository.ts';

export const MIN_PASSWORD_LENGTH = 8;

/** A password for people to type once and change: 18 characters from a 64-letter alphabet (108 bits). */
export function generatePassword(): string {
  return randomBytes(14).toString('base64url').slice(0, 18);
}

export class PasswordInputError extends Error {}

/**
 * Sets a user's password (generated when none is given) and ends every session of the user.
 * The email may belong to users of several accounts: then `accountId` says which.
 */
export async function setPasswordByEmail(
  deps: { db: Db; clock: Clock; config?: PasswordConfig },
  input: { email: string; accountId?: number; password?: string },
): Promise<{ user: { id: number; account_id: number; email: string }; password: string; sessions_ended: number }> {
  const password = input.password ?? generatePassword();
  if (password.length < MIN_PASSWORD_LENGTH) throw new PasswordInputError(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  let query = deps.db.selectFrom('users').select(['id', 'account_id', 'email']).where('email_lc', '=', input.email.trim().toLowerCase());
  if (input.accountId !== undefined) query = query.where('account_id', '=', input.accountId);
  const users = await query.execute();
  if (users.length === 0) throw new PasswordInputError(`no team user with email ${input.email}${input.accountId ? ` in account ${input.accountId}` : ''}`);
  if (users.length > 1) throw new PasswordInputError(`several accounts have a user with email ${input.email}; pass --account ID`);
  const user = users[0];
  const hash = await hashPassword(password, deps.config?.passwordCost);
  const ended = await deps.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, Number(user.id), hash, deps.clock.now());
    return endUserSessions(trx, Number(user.id));
  });
  return { user: { id: Number(user.id), account_id: Number(user.account_id), email: user.email }, password, sessions_ended: ended };
}
