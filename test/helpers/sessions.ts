import assert from 'node:assert/strict';
import { createWrite } from '../../src/lib/write.ts';
import { randomBytes } from 'node:crypto';
import { createUser } from '../../src/modules/users/users.service.ts';
import { call, type CallOptions, type Harness } from './harness.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface ConsoleLogin {
  userId: number;
  email: string;
  cookie: string;
  csrf: string;
}

/** Adds a team user with a password to the account. */
export async function addUser(h: Harness, accountId: number, role: 'owner' | 'admin' | 'member', email?: string): Promise<{ id: number; email: string }> {
  const address = email ?? `${role}-${randomBytes(4).toString('hex')}@example.com`;
  const user = await createUser({ db: h.db, config: h.config, write: createWrite({ db: h.db, clock: h.clock, wakeDispatcher: () => {} }) }, accountId, {
    email: address,
    display_name: `A ${role}`,
    role,
    password: TEST_PASSWORD,
  });
  return { id: user.id, email: address };
}

/** Signs in through POST /api/v1/session and returns the cookie and CSRF token. */
export async function signIn(h: Harness, email: string, password = TEST_PASSWORD): Promise<ConsoleLogin> {
  const res = await call(h, 'POST', '/api/v1/session', { body: { email, password } });
  assert.equal(res.statusCode, 201, res.body);
  const setCookie = String(res.headers['set-cookie']);
  const token = /custops_session=([^;]+)/.exec(setCookie)![1];
  return { userId: res.json().user.id, email, cookie: `custops_session=${token}`, csrf: res.json().csrf_token };
}

/** A request as the signed-in console user: the cookie, and the CSRF token on writes unless told otherwise. */
export function asUser(
  h: Harness,
  login: ConsoleLogin,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: CallOptions & { csrf?: string | null } = {},
) {
  const headers: Record<string, string> = { cookie: login.cookie, ...(options.headers ?? {}) };
  const csrf = options.csrf === undefined ? login.csrf : options.csrf;
  if (method !== 'GET' && csrf !== null) headers['x-csrf-token'] = csrf;
  return call(h, method, url, { ...options, headers });
}
