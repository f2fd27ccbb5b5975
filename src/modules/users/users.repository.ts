import type { Executor } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

export type NewUser = Omit<UsersTable, 'id'>;

export function insertUser(db: Executor, row: NewUser) {
  return db.insertInto('users').values(row).returning(['id', 'email']).executeTakeFirstOrThrow();
}
