import { PostgresAdapter, sql } from 'kysely';
import { countRows, pageWindow } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import type { ApiKeysTable } from '../../db/schema.ts';

export function findKeyByHash(db: Executor, secretHash: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'scopes', 'rate_limit_per_minute', 'revoked_at', 'last_used_at'])
    .where('secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/** A new key: every column but those a key gains later (revocation, last use). */
export function insertKey(db: Executor, row: Omit<ApiKeysTable, 'id' | 'revoked_at' | 'last_used_at'>) {
  return db.insertInto('api_keys').values(row).returning(['id']).executeTakeFirstOrThrow();
}

/**
 * Revokes the key and, in the same transaction, tells every process's key cache (key-cache.ts).
 * Outside a transaction, on PostgreSQL, it also waits for every live cache to drop the key (the
 * handshake below), so a revoked key is refused by every process the moment this returns.
 */
export async function revokeKey(db: Executor, id: number, at: number): Promise<boolean> {
  if (db.isTransaction) {
    const r = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) await markAuthChanged(db);
    return Number(r.numUpdatedRows) > 0;
  }
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const revoked = await db.transaction().execute((trx) => revokeKey(trx, id, at));
    if (revoked) localAuthChanges.count++;
    return revoked;
  }
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${AUTH_GATE}, hashtext(current_schema()))`.execute(conn);
    try {
      const revoked = await conn.transaction().execute((trx) => revokeKey(trx, id, at));
      if (revoked) {
        localAuthChanges.count++;
        if (!(await awaitKeyCaches(conn))) authChangeStats.unacknowledged++;
      }
      return revoked;
    } finally {
      await sql`select pg_advisory_unlock(${AUTH_GATE}, hashtext(current_schema()))`.execute(conn);
    }
  });
}

export function findKeyById(db: Executor, id: number) {
  return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}

export async function touchKey(db: Executor, id: number, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Revocations committed by this process: its key caches check the version again at once, even within one event-loop turn. */
export const localAuthChanges = { count: 0 };
/** Revocations whose wait for the other processes' key caches timed out (each such cache drops the key when it reads the notification). */
export const authChangeStats = { unacknowledged: 0 };

/** The PostgreSQL channel a revocation notifies (on commit), so every process drops its key cache. */
export const AUTH_CHANNEL = 'custops_auth';
/**
 * The advisory locks of the revocation handshake, keyed by (constant, hash of the schema) so that
 * processes on other schemas of one database (tests) never wait for each other:
 * - AUTH_LOCK ("auth" in ASCII): every live PostgreSQL key cache holds it shared.
 * - AUTH_GATE: a revoker holds it exclusively from before its commit until every cache has let go
 *   of AUTH_LOCK. A cache, on the notification, drops its keys, lets go of AUTH_LOCK, passes the
 *   gate (waits for it shared, then lets go) and takes AUTH_LOCK shared again. The revoker, after
 *   its commit, takes AUTH_LOCK exclusively: granted once every cache has dropped the key, and no
 *   cache can take AUTH_LOCK back before that, since the gate holds it until then.
 */
export const AUTH_LOCK = 0x61757468;
export const AUTH_GATE = AUTH_LOCK + 1;
const AWAIT_CACHES_TIMEOUT = '5s';

/**
 * PostgreSQL, after a committed revocation, holding AUTH_GATE: waits until every process's key
 * cache has dropped its keys (has let go of its shared AUTH_LOCK). A process too stuck to answer
 * within the time-out drops its keys when it reads the notification; the revocation itself is
 * committed either way, so the time-out is counted (authChangeStats), not an error.
 */
async function awaitKeyCaches(db: Executor): Promise<boolean> {
  return db
    .transaction()
    .execute(async (trx) => {
      await sql.raw(`set local lock_timeout = '${AWAIT_CACHES_TIMEOUT}'`).execute(trx);
      await sql`select pg_advisory_xact_lock(${AUTH_LOCK}, hashtext(current_schema()))`.execute(trx);
      return true;
    })
    .catch(() => false);
}
/**
 * Marks a change to who may authenticate, inside the transaction that makes it: the version row
 * moves (SQLite processes compare it on every request) and, on PostgreSQL, a NOTIFY reaches every
 * listening process when the transaction commits (never when it rolls back).
 */
export async function markAuthChanged(trx: Executor): Promise<void> {
  await trx
    .updateTable('auth_changes')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_notify(${AUTH_CHANNEL}, '')`.execute(trx);
}

const KEY_COLUMNS = ['id', 'name', 'prefix', 'scopes', 'rate_limit_per_minute', 'created_at', 'last_used_at', 'revoked_at'] as const;

function accountKeys(db: Executor, accountId: number, includeRevoked: boolean) {
  let q = db.selectFrom('api_keys').where('account_id', '=', accountId);
  if (!includeRevoked) q = q.where('revoked_at', 'is', null);
  return q;
}

export function countAccountKeys(db: Executor, accountId: number, includeRevoked: boolean): Promise<number> {
  return countRows(db, accountKeys(db, accountId, includeRevoked));
}

/** Newest first. */
export function listAccountKeys(db: Executor, accountId: number, includeRevoked: boolean, limit: number, offset: number) {
  return pageWindow(
    accountKeys(db, accountId, includeRevoked)
      .select([...KEY_COLUMNS])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
    limit,
    offset,
  ).execute();
}

export function findAccountKey(db: Executor, accountId: number, id: number) {
  return db
    .selectFrom('api_keys')
    .select([...KEY_COLUMNS])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}
