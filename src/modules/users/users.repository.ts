import type { Selectable } from 'kysely';
import { countRows, pageWindow } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type { UsersTable } from '../../db/schema.ts';

export type NewUser = Omit<UsersTable, 'id'>;
export type UserRow = Selectable<UsersTable>;
export type UserSort = 'created_at' | 'id';

export interface UserFilter {
  activeOnly: boolean;
}

export interface UserOrder {
  sort: UserSort;
  direction: 'asc' | 'desc';
}

// password_hash is never selected for the API: the secret cannot leak through a forgotten mapping.
const PUBLIC_COLUMNS = ['id', 'email', 'display_name', 'role', 'is_active', 'support_enabled', 'created_at'] as const;
export type PublicUserRow = Pick<UserRow, (typeof PUBLIC_COLUMNS)[number]>;

export function insertUser(db: Executor, row: NewUser) {
  return db.insertInto('users').values(row).returning(['id', 'email']).executeTakeFirstOrThrow();
}

function filtered(db: Executor, accountId: number, f: UserFilter) {
  let query = db.selectFrom('users').where('account_id', '=', accountId);
  if (f.activeOnly) query = query.where('is_active', '=', true);
  return query;
}

export async function countUsers(db: Executor, accountId: number, f: UserFilter): Promise<number> {
  return countRows(db, filtered(db, accountId, f));
}

export function listUsers(db: Executor, accountId: number, f: UserFilter, order: UserOrder, limit: number, offset: number): Promise<PublicUserRow[]> {
  return pageWindow(
    filtered(db, accountId, f)
      .select([...PUBLIC_COLUMNS])
      .orderBy(order.sort, order.direction)
      .orderBy('id', order.direction),
    limit,
    offset,
  ).execute();
}

const userById = prepareQuery(
  (db, accountId: number, id: number) =>
    db
      .selectFrom('users')
      .select([...PUBLIC_COLUMNS])
      .where('account_id', '=', accountId)
      .where('id', '=', id),
  { pipelined: true },
);

/** The account's user by id (what the API shows of it), a prepared read (docs/design.md#prepared-queries). */
export async function findUser(db: Executor, accountId: number, id: number): Promise<PublicUserRow | undefined> {
  return (await userById.rows(db, accountId, id))[0];
}

export function findUserByEmail(db: Executor, accountId: number, emailLc: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('users').select('id').where('account_id', '=', accountId).where('email_lc', '=', emailLc).executeTakeFirst();
}

export function insertUserReturning(db: Executor, row: NewUser): Promise<PublicUserRow> {
  return db
    .insertInto('users')
    .values(row)
    .returning([...PUBLIC_COLUMNS])
    .executeTakeFirstOrThrow();
}
