import { PostgresAdapter, sql } from 'kysely';
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

/** Revokes the key and, in the same transaction, tells every process's key cache (key-cache.ts). */
export async function revokeKey(db: Executor, id: number, at: number): Promise<boolean> {
  if (!db.isTransaction) return db.transaction().execute((trx) => revokeKey(trx, id, at));
  const r = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) await markAuthChanged(db);
  return Number(r.numUpdatedRows) > 0;
}

export function findKeyById(db: Executor, id: number) {
  return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}

export async function touchKey(db: Executor, id: number, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** The PostgreSQL channel a revocation notifies (on commit), so every process drops its key cache. */
export const AUTH_CHANNEL = 'custops_auth';
/**
 * Marks a change to who may authenticate, inside the transaction that makes it: the version row
 * moves (SQLite processes compare it on every request) and, on PostgreSQL, a NOTIFY reaches every
 * listening process when the transaction commits (never when it rolls back).
 */
export async function markAuthChanged(trx: Executor): Promise<void> {
  await trx.updateTable('auth_changes').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_notify(${AUTH_CHANNEL}, '')`.execute(trx);
}

