import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, type PasswordConfig } from '../../lib/crypto.ts';
import { insertUser } from '../users/users.repository.ts';
import { insertAccount } from './accounts.repository.ts';

export interface CreatedAccount {
  account: { id: number; name: string };
  owner: { id: number; email: string } | null;
}

/** Creates an account and, when an e-mail is given, its owner (who may log into the console with the password). */
export async function createAccount(
  deps: { db: Db; clock: Clock; config?: PasswordConfig },
  input: { name: string; ownerEmail?: string; ownerPassword?: string; ownerName?: string },
): Promise<CreatedAccount> {
  const passwordHash = input.ownerPassword ? await hashPassword(input.ownerPassword, deps.config?.passwordCost) : null;
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const account = await insertAccount(trx, { name: input.name, created_at: now });
    if (!input.ownerEmail) return { account, owner: null };
    const owner = await insertUser(trx, {
      account_id: account.id,
      email: input.ownerEmail,
      email_lc: input.ownerEmail.toLowerCase(),
      display_name: input.ownerName ?? input.ownerEmail.split('@')[0],
      role: 'owner',
      is_active: true,
      support_enabled: true,
      password_hash: passwordHash,
      created_at: now,
      updated_at: now,
    });
    return { account, owner };
  });
}
