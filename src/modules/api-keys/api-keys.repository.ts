import type { Executor } from '../../db/database.ts';

export function findKeyByHash(db: Executor, secretHash: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'scopes', 'rate_limit_per_minute', 'revoked_at', 'last_used_at'])
    .where('secret_hash', '=', secretHash)
    .executeTakeFirst();
}

export function insertKey(
  db: Executor,
  row: { account_id: number; name: string; prefix: string; secret_hash: string; scopes: string | null; rate_limit_per_minute: number | null; created_at: number },
) {
  return db.insertInto('api_keys').values(row).returning(['id']).executeTakeFirstOrThrow();
}

export async function revokeKey(db: Executor, id: number, at: number): Promise<boolean> {
  const r = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function findKeyById(db: Executor, id: number) {
  return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}

export async function touchKey(db: Executor, id: number, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
