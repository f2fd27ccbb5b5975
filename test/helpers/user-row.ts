import type { Insertable } from 'kysely';
import type { UsersTable } from '../../src/db/schema.ts';

/**
 * A team user's row as stored (an active member, no console password, support off unless told), for tests
 * and benches that set up data without the API.
 */
export function userRow(o: {
  accountId: number;
  email: string;
  displayName: string;
  /** Created and updated then. */
  at: number;
  role?: UsersTable['role'];
  isActive?: boolean;
  supportEnabled?: boolean;
  passwordHash?: string | null;
}): Insertable<UsersTable> {
  return {
    account_id: o.accountId,
    email: o.email,
    email_lc: o.email.toLowerCase(),
    display_name: o.displayName,
    role: o.role ?? 'member',
    is_active: o.isActive ?? true,
    support_enabled: o.supportEnabled ?? false,
    password_hash: o.passwordHash ?? null,
    created_at: o.at,
    updated_at: o.at,
  };
}
