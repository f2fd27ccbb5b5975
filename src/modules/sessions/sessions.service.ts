import { randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../db/database.ts';
import { iso, type Clock } from '../../lib/clock.ts';
import { DEFAULT_PASSWORD_COST, hashPassword, needsRehash, sha256Hex, unmatchablePasswordHash, verifyPassword, type PasswordConfig } from '../../lib/crypto.ts';
import { replacePasswordHash } from './passwords.repository.ts';
import { AppError } from '../../lib/errors.ts';
import { getUser } from '../users/users.service.ts';
import type { SessionView } from './sessions.schemas.ts';
import * as repo from './sessions.repository.ts';

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86400_000;
/** 5 failed sign-ins for one email within 15 minutes refuse that email for 15 minutes. */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LOCK_MS = 15 * 60_000;

const INVALID = 'Invalid email or password.';
// Verified against when no user matches, so an unknown email costs the same scrypt work as a wrong
// password: one per cost (CUSTOPS_PASSWORD_COST), so that it costs what the users' new hashes cost.
const dummyHashes = new Map<number, string>();
function dummyHash(cost = DEFAULT_PASSWORD_COST): string {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = unmatchablePasswordHash(cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

export interface SessionDeps {
  db: Db;
  clock: Clock;
  config?: PasswordConfig;
}

/** When a locked email may try again (epoch ms), or null when it may try now. */
export async function lockedUntil(db: Executor, emailLc: string, now: number): Promise<number | null> {
  const rows = await repo.recentFailures(db, emailLc, now - SIGN_IN_WINDOW_MS - SIGN_IN_LOCK_MS, SIGN_IN_MAX_FAILURES);
  if (rows.length < SIGN_IN_MAX_FAILURES) return null;
  const newest = Number(rows[0].failed_at);
  const oldest = Number(rows[SIGN_IN_MAX_FAILURES - 1].failed_at);
  return newest - oldest <= SIGN_IN_WINDOW_MS && now < newest + SIGN_IN_LOCK_MS ? newest + SIGN_IN_LOCK_MS : null;
}

export interface SignedIn {
  token: string;
  session: SessionView;
}

/**
 * Email and password → a new session. An unknown email, a wrong password, a deactivated user and
 * a user without a password all answer the same 401; a throttled email answers 429 whatever the
 * password. When one email belongs to users of several accounts, the password (and the optional
 * account_id) decides which.
 */
export async function signIn(deps: SessionDeps, input: { email: string; password: string; account_id?: number }): Promise<SignedIn> {
  const emailLc = input.email.trim().toLowerCase();
  const now = deps.clock.now();
  const until = await lockedUntil(deps.db, emailLc, now);
  if (until !== null) {
    const seconds = Math.max(1, Math.ceil((until - now) / 1000));
    throw new AppError('rate_limited', `Too many failed sign-ins for this email; try again in ${Math.ceil(seconds / 60)} minutes.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  const candidates = (await repo.findSignInCandidates(deps.db, emailLc)).filter(
    (c) => input.account_id === undefined || Number(c.account_id) === input.account_id,
  );
  let match: (typeof candidates)[number] | undefined;
  for (const c of candidates) {
    if (await verifyPassword(input.password, c.password_hash!)) {
      match = c;
      break;
    }
  }
  if (candidates.length === 0) await verifyPassword(input.password, dummyHash(deps.config?.passwordCost));
  if (!match) {
    await repo.recordFailure(deps.db, emailLc, now);
    throw new AppError('unauthorized', INVALID);
  }
  await repo.clearFailures(deps.db, emailLc);
  // Hashed again at the configured cost when it has another: after CUSTOPS_PASSWORD_COST is raised,
  // each user's next sign-in brings their hash (and the time a sign-in takes) to the new cost.
  const cost = deps.config?.passwordCost ?? DEFAULT_PASSWORD_COST;
  if (needsRehash(match.password_hash!, cost)) await replacePasswordHash(deps.db, Number(match.id), await hashPassword(input.password, cost));
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  const { id } = await repo.insertSession(deps.db, {
    account_id: Number(match.account_id),
    user_id: Number(match.id),
    token_hash: sha256Hex(token),
    csrf_token: csrf,
    created_at: now,
    last_seen_at: now,
    expires_at: now + SESSION_ABSOLUTE_MS,
  });
  const session = await describeSession(deps.db, {
    id,
    accountId: Number(match.account_id),
    userId: Number(match.id),
    csrfToken: csrf,
    lastSeenAt: now,
    expiresAt: now + SESSION_ABSOLUTE_MS,
  });
  return { token, session };
}

export interface ActiveSession {
  id: number;
  accountId: number;
  userId: number;
  role: 'owner' | 'admin' | 'member';
  csrfToken: string;
  lastSeenAt: number;
  expiresAt: number;
  userCreatedAt: number;
}

/**
 * The live session of a cookie token, or null: unknown, idle 12 hours, past its 7 days, or its
 * user deactivated (such a session is deleted on sight).
 */
export async function findActiveSession(db: Db, token: string, now: number): Promise<ActiveSession | null> {
  const row = await repo.findSessionByTokenHash(db, sha256Hex(token));
  if (!row) return null;
  const lastSeen = Number(row.last_seen_at);
  if (!row.is_active || Number(row.expires_at) <= now || lastSeen + SESSION_IDLE_MS <= now) {
    await repo.deleteSession(db, Number(row.id));
    return null;
  }
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    userId: Number(row.user_id),
    role: row.role,
    csrfToken: row.csrf_token,
    lastSeenAt: lastSeen,
    expiresAt: Number(row.expires_at),
    userCreatedAt: Number(row.user_created_at),
  };
}

export async function describeSession(
  db: Executor,
  s: { id: number; accountId: number; userId: number; csrfToken: string; lastSeenAt: number; expiresAt: number },
): Promise<SessionView> {
  return {
    user: await getUser(db, s.accountId, s.userId),
    account_id: s.accountId,
    csrf_token: s.csrfToken,
    idle_expires_at: iso(Math.min(s.lastSeenAt + SESSION_IDLE_MS, s.expiresAt)),
    expires_at: iso(s.expiresAt),
  };
}

export function endSession(db: Executor, id: number): Promise<void> {
  return repo.deleteSession(db, id);
}

export function endUserSessions(db: Executor, userId: number): Promise<number> {
  return repo.deleteUserSessions(db, userId);
}
