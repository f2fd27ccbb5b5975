import type { Executor } from '../../db/database.ts';

export async function findPasswordHash(db: Executor, accountId: number, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function setPasswordHash(db: Executor, userId: number, hash: string, at: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash, updated_at: at }).where('id', '=', userId).execute();
}
