import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { hmacSha256Hex } from '../../src/lib/crypto.ts';
import { revokeApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { SCOPES, satisfyingScopes, type Scope, type ScopeRequirement } from '../../src/modules/api-keys/scopes.ts';
import { call, type Harness, type TestAccount } from './harness.ts';

export interface RouteUnderTest {
  method: InjectOptions['method'];
  url: string;
  scope: ScopeRequirement;
  body?: unknown;
}

/** Asserts the error model: status, code, message and request id (and the X-Request-Id header). */
export function assertError(res: { statusCode: number; headers: Record<string, unknown>; json: () => any }, status: number, code: string): any {
  const body = res.json();
  assert.equal(res.statusCode, status, `expected ${status} ${code}, got ${res.statusCode} ${JSON.stringify(body)}`);
  assert.equal(body.error, code);
  assert.equal(typeof body.message, 'string');
  assert.match(body.request_id, /^req_/);
  assert.equal(res.headers['x-request-id'], body.request_id);
  return body;
}

/**
 * The checks every authenticated route shares: 401 without, with a malformed, an unknown
 * and a revoked key; 403 for a wrong X-Service-Signature; 403 (with required_scopes) for a key
 * holding every scope but the ones that grant the route.
 */
export async function assertCommonAuth(h: Harness, account: TestAccount, route: RouteUnderTest): Promise<void> {
  const send = (key: string | null, headers: Record<string, string> = {}) => call(h, route.method, route.url, { key, body: route.body, headers });
  assertError(await send(null), 401, 'unauthorized');
  assertError(await call(h, route.method, route.url, { body: route.body, headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
  assertError(await send('cok_not_a_real_key'), 401, 'unauthorized');

  const revokedKey = await account.keyWith(['*']);
  const { id } = await h.db.selectFrom('api_keys').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  await revokeApiKey({ db: h.db, clock: h.clock }, id);
  assertError(await send(revokedKey), 401, 'unauthorized');

  assertError(await send(account.key, { 'x-service-signature': 'deadbeef' }), 403, 'forbidden');

  const granting = new Set<Scope>(satisfyingScopes(route.scope));
  const others = SCOPES.filter((s) => !granting.has(s));
  const narrow = await account.keyWith(others);
  const body = assertError(await send(narrow), 403, 'forbidden');
  for (const s of typeof route.scope === 'string' ? [route.scope] : route.scope) {
    assert.ok(body.required_scopes.includes(s), `required_scopes names ${s}`);
  }
}

/** X-Service-Signature for a body, as an integrator computes it. */
export function sign(secret: string, body: unknown): string {
  return hmacSha256Hex(secret, body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
}
