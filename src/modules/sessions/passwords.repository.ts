import type { Executor } from '../../db/database.ts';

export async function findPasswordHash(db: Executor, accountId: number, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

/** The same password's hash at another cost: not a change of the user (updated_at stays). */
export async function replacePasswordHash(db: Executor, userId: number, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

export async function setPasswordHash(db: Executor, userId: number, hash: string, at: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash, updated_at: at }).where('id', '=', userId).execute();
}
