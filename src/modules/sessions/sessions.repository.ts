import type { Executor } from '../../db/database.ts';
import { prepareQuery } from '../../db/prepared.ts';

export function insertSession(
  db: Executor,
  row: { account_id: number; user_id: number; token_hash: string; csrf_token: string; created_at: number; last_seen_at: number; expires_at: number },
) {
  return db.insertInto('console_sessions').values(row).returning(['id']).executeTakeFirstOrThrow();
}

/**
 * The session of a token (by hash) with what every request needs of its user: read on every console
 * request, so a prepared read (docs/design.md#prepared-queries).
 */
const sessionByTokenHash = prepareQuery(
  (db, tokenHash: string) =>
    db
      .selectFrom('console_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.id',
        's.account_id',
        's.user_id',
        's.csrf_token',
        's.created_at',
        's.last_seen_at',
        's.expires_at',
        'u.role',
        'u.is_active',
        'u.created_at as user_created_at',
      ])
      .where('s.token_hash', '=', tokenHash),
  { pipelined: true },
);

export async function findSessionByTokenHash(db: Executor, tokenHash: string) {
  return (await sessionByTokenHash.rows(db, tokenHash))[0];
}

export async function touchSession(db: Executor, id: number, at: number): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('console_sessions').where('id', '=', id).execute();
}

/** Ends every session of a user (password change, deactivation). */
export async function deleteUserSessions(db: Executor, userId: number): Promise<number> {
  const r = await db.deleteFrom('console_sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function deleteExpiredSessions(db: Executor, now: number, idleMs: number): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
    .execute();
}

/** Users who may sign in with this email: active, with a password, in any account (oldest first). */
export function findSignInCandidates(db: Executor, emailLc: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'password_hash'])
    .where('email_lc', '=', emailLc)
    .where('is_active', '=', true)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .limit(5)
    .execute();
}

export async function recordFailure(db: Executor, emailLc: string, at: number): Promise<void> {
  await db.insertInto('sign_in_failures').values({ email_lc: emailLc, failed_at: at }).execute();
}

/** The newest failures of an email, newest first. */
export function recentFailures(db: Executor, emailLc: string, since: number, limit: number) {
  return db
    .selectFrom('sign_in_failures')
    .select('failed_at')
    .where('email_lc', '=', emailLc)
    .where('failed_at', '>', since)
    .orderBy('failed_at', 'desc')
    .limit(limit)
    .execute();
}

export async function clearFailures(db: Executor, emailLc: string, before?: number): Promise<void> {
  let q = db.deleteFrom('sign_in_failures').where('email_lc', '=', emailLc);
  if (before !== undefined) q = q.where('failed_at', '<', before);
  await q.execute();
}
