import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { ChangePasswordBody, Session, SignInBody } from './sessions.schemas.ts';
import { describeSession, endSession, endUserSessions, signIn } from './sessions.service.ts';
import { clearSessionCookie, setSessionCookie } from './session-auth.ts';
import { findPasswordHash, setPasswordHash } from './passwords.repository.ts';

export const sessionSchemas = [];

/** Sign-in, the current session, sign-out and password change: console sessions only, never API keys. */
export function registerSessionRoutes(app: App, deps: ModuleDeps): void {
  const cookieSecure = deps.config.cookieSecure;

  app.post(
    '/session',
    {
      config: { scope: null, session: 'sign-in', errors: ['unauthorized', 'rate_limited', 'forbidden'] },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in to the console',
        description:
          'Checks an email and password and starts a console session: the `custops_session` cookie (HttpOnly, SameSite=Lax, ' +
          '`Secure` over HTTPS or with `CUSTOPS_COOKIE_SECURE=1`). An unknown email and a wrong password both answer 401 ' +
          '"Invalid email or password."; after 5 failures for one email within 15 minutes that email is refused for 15 ' +
          'minutes (429 `rate_limited` with `Retry-After`), whatever the password. The session ends after 12 hours without ' +
          'a request, 7 days after sign-in, at sign-out, at a password change and when the user is deactivated. API keys are ' +
          'refused here (403).',
        tags: ['console'],
        body: SignInBody,
        response: { 201: Session },
      },
    },
    async (request, reply) => {
      const { token, session } = await signIn(deps, request.body);
      setSessionCookie(request, reply, token, cookieSecure);
      return reply.code(201).send(session);
    },
  );

  app.get(
    '/session',
    {
      config: { scope: null, session: 'only' },
      schema: {
        operationId: 'getSession',
        summary: 'The current console session',
        description: 'The signed-in user, the CSRF token to send on writes, and when the session ends. 401 when signed out.',
        tags: ['console'],
        response: { 200: Session },
      },
    },
    async (request) => {
      const s = request.auth.session!;
      // This request is the session's latest activity: the idle end moves to 12 hours from now.
      const view = await describeSession(deps.db, {
        id: s.id,
        accountId: request.auth.accountId,
        userId: s.userId,
        csrfToken: s.csrfToken,
        lastSeenAt: deps.clock.now(),
        expiresAt: s.expiresAt,
      });
      return view;
    },
  );

  app.delete(
    '/session',
    {
      config: { scope: null, session: 'only' },
      schema: {
        operationId: 'signOut',
        summary: 'Sign out',
        description: 'Ends this session at once and clears the cookie.',
        tags: ['console'],
        response: { 204: Type.Null({ description: 'Signed out.' }) },
      },
    },
    async (request, reply) => {
      await endSession(deps.db, request.auth.session!.id);
      clearSessionCookie(request, reply, cookieSecure);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/session/password',
    {
      config: { scope: null, session: 'only', errors: ['validation_error'] },
      schema: {
        operationId: 'changePassword',
        summary: 'Change your password',
        description: 'Needs the current password. Ends every session of the user, this one included: sign in again with the new password.',
        tags: ['console'],
        body: ChangePasswordBody,
        response: { 204: Type.Null({ description: 'Changed; every session of the user has ended.' }) },
      },
    },
    async (request, reply) => {
      const userId = request.auth.session!.userId;
      const stored = await findPasswordHash(deps.db, request.auth.accountId, userId);
      if (!stored || !(await verifyPassword(request.body.current_password, stored))) {
        throw new AppError('validation_error', 'The current password is not right.', { fields: { current_password: 'incorrect' } });
      }
      const hash = await hashPassword(request.body.new_password, deps.config.passwordCost);
      await deps.db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, userId, hash, deps.clock.now());
        await endUserSessions(trx, userId);
      });
      clearSessionCookie(request, reply, cookieSecure);
      return reply.code(204).send(null);
    },
  );
}
