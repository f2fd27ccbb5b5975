import type { Executor } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { iso } from '../../lib/clock.ts';
import { hashPassword, type PasswordConfig } from '../../lib/crypto.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import * as repo from './users.repository.ts';
import type { CreateUserInput, UserView } from './users.schemas.ts';

export function toUserView(r: repo.PublicUserRow): UserView {
  return {
    id: Number(r.id),
    email: r.email,
    display_name: r.display_name,
    role: r.role,
    is_active: Boolean(r.is_active),
    support_enabled: Boolean(r.support_enabled),
    created_at: iso(r.created_at),
  };
}

export async function listUsers(
  db: Executor,
  accountId: number,
  filter: repo.UserFilter,
  order: repo.UserOrder,
  page: PageRequest,
): Promise<ListResult<UserView>> {
  return listPage(
    page,
    () => repo.countUsers(db, accountId, filter),
    (limit, offset) => repo.listUsers(db, accountId, filter, order, limit, offset),
    (rows) => rows.map(toUserView),
  );
}

export async function getUser(db: Executor, accountId: number, id: number): Promise<UserView> {
  const row = await repo.findUser(db, accountId, id);
  if (!row) throw notFound('user_not_found', id);
  return toUserView(row);
}

function emailTaken(): AppError {
  return new AppError('conflict', 'A team user with this email already exists in the account.');
}

export async function createUser(
  deps: Pick<ModuleDeps, 'db' | 'write'> & { config?: PasswordConfig },
  accountId: number,
  input: CreateUserInput,
  claim: IdempotencyClaim | null = null,
): Promise<UserView> {
  const emailLc = input.email.toLowerCase();
  // Checked before hashing so a duplicate costs no scrypt work; the unique key settles races.
  if (await repo.findUserByEmail(deps.db, accountId, emailLc)) throw emailTaken();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password, deps.config?.passwordCost);
  try {
    return await deps.write(claim, async ({ trx, now }) => {
      const row = await repo.insertUserReturning(trx, {
        account_id: accountId,
        email: input.email,
        email_lc: emailLc,
        display_name: input.display_name,
        role: input.role ?? 'member',
        is_active: input.is_active ?? true,
        support_enabled: input.support_enabled ?? false,
        password_hash: passwordHash,
        created_at: now,
        updated_at: now,
      });
      return toUserView(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}
