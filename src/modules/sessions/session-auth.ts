import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { safeEqual, sha256Hex } from '../../lib/crypto.ts';
import type { AuthContext } from '../../http/types.ts';
import { findActiveSession, SESSION_ABSOLUTE_MS } from './sessions.service.ts';
import { touchSession } from './sessions.repository.ts';

export const SESSION_COOKIE = 'custops_session';
const TOUCH_EVERY_MS = 60_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SessionAuthOptions {
  db: Db;
  clock: Clock;
  consoleRateLimitPerMinute: number;
}

/**
 * Console sessions as an authentication of the API: a request without `Authorization` but with
 * the session cookie acts as its user, with full access limited by the user's role, counted
 * against a per-user rate limit.
 */
export function createSessionAuthenticator(opts: SessionAuthOptions) {
  return async function authenticate(token: string, _request: FastifyRequest): Promise<AuthContext | null> {
    const now = opts.clock.now();
    const session = await findActiveSession(opts.db, token, now);
    if (!session) return null;
    if (now - session.lastSeenAt > TOUCH_EVERY_MS) {
      // Idle expiry is counted from the last request: written at most once a minute, and awaited so the
      // next request (perhaps on another process) sees it.
      await touchSession(opts.db, session.id, now);
    }
    return {
      accountId: session.accountId,
      keyId: null,
      scopes: null,
      rateLimitPerMinute: opts.consoleRateLimitPerMinute,
      // Per user, and distinct across databases that share one Redis (ids alone repeat there).
      rateLimitKey: 'user:' + sha256Hex(`${session.accountId}:${session.userId}:${session.userCreatedAt}`).slice(0, 32),
      session: { id: session.id, userId: session.userId, role: session.role, csrfToken: session.csrfToken, expiresAt: session.expiresAt },
    };
  };
}

/** Writes made with the cookie must echo the session's CSRF token: a cross-site page cannot read it. */
export function csrfMatches(request: FastifyRequest, csrfToken: string): boolean {
  if (!WRITE_METHODS.has(request.method)) return true;
  const sent = request.headers['x-csrf-token'];
  return typeof sent === 'string' && safeEqual(sent, csrfToken);
}

/** HttpOnly, SameSite=Lax; Secure over HTTPS (or when configured behind a TLS proxy). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, cookieSecure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieSecure || request.protocol === 'https',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, cookieSecure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieSecure || request.protocol === 'https' });
}
