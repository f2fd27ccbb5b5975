import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { hmacSha256Hex, safeEqual, sha256Hex } from '../lib/crypto.ts';
import { touchKey } from '../modules/api-keys/api-keys.repository.ts';
import type { KeyCache, KeyRow } from '../modules/api-keys/key-cache.ts';
import { grantsAny, parseStoredScopes, satisfyingScopes } from '../modules/api-keys/scopes.ts';
import { csrfMatches, SESSION_COOKIE } from '../modules/sessions/session-auth.ts';
import type { RateLimitHit, RateLimitStore } from './rate-limit.ts';
import { routeOf } from './route.ts';
import type { App, AuthContext } from './types.ts';

export interface AuthOptions {
  db: Db;
  /** API keys by secret hash, without a database round trip per request (revocations invalidate it in every process). */
  keys: KeyCache;
  clock: Clock;
  store: RateLimitStore;
  defaultRateLimit: number;
  /** Resolves a console session cookie to its caller, or null when the session is over. */
  authenticateSession: (token: string, request: FastifyRequest) => Promise<AuthContext | null>;
}

/** A route anyone may call: no scope and not a session route. */
function isPublic(request: FastifyRequest): boolean {
  const config = routeOf(request).config;
  return (config.scope === null || config.scope === undefined) && config.session !== 'only';
}

const WINDOW_MS = 60_000;
const TOUCH_EVERY_MS = 60_000;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function readBearer(header: string | undefined): string | null {
  const m = header ? BEARER.exec(header) : null;
  return m ? m[1] : null;
}

/** X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body keyed with the key secret as sent. */
export function signatureMatches(secret: string, rawBody: Buffer | undefined, signature: string): boolean {
  const expected = hmacSha256Hex(secret, rawBody ?? Buffer.alloc(0));
  return safeEqual(expected, signature.trim());
}

/** What a key row grants, built once per row object the key cache holds (the row never changes while cached). */
const contexts = new WeakMap<KeyRow, AuthContext>();

function contextOf(key: KeyRow | undefined, secretHash: string, defaultRateLimit: number): AuthContext {
  if (!key || key.revoked_at !== null) throw new AppError('unauthorized', 'The API key is invalid or revoked.');
  let context = contexts.get(key);
  if (!context || context.rateLimitPerMinute !== (key.rate_limit_per_minute ?? defaultRateLimit)) {
    context = {
      accountId: Number(key.account_id),
      keyId: Number(key.id),
      scopes: parseStoredScopes(key.scopes),
      rateLimitPerMinute: key.rate_limit_per_minute ?? defaultRateLimit,
      // Counted by a digest of the secret, not the row id: ids repeat across databases sharing one Redis.
      rateLimitKey: secretHash.slice(0, 32),
    };
    contexts.set(key, context);
  }
  return context;
}

/**
 * The API key a request carries, as its AuthContext; 401 `unauthorized` when it is missing, unknown or
 * revoked. Also used by the MCP endpoint, which takes API keys only. A key the cache holds is answered
 * at once, without a promise; one it does not hold is read from the database.
 */
export function authenticateApiKey(
  opts: Pick<AuthOptions, 'db' | 'keys' | 'clock' | 'defaultRateLimit'>,
  request: FastifyRequest,
  lastTouched: Map<number, number>,
): AuthContext | Promise<AuthContext> {
  const secret = readBearer(request.headers.authorization);
  if (!secret) throw new AppError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
  const secretHash = sha256Hex(secret);
  const used = (key: KeyRow | undefined): AuthContext => {
    const context = contextOf(key, secretHash, opts.defaultRateLimit);
    const id = key!.id;
    const now = opts.clock.now();
    if (now - (lastTouched.get(id) ?? key!.last_used_at ?? 0) > TOUCH_EVERY_MS) {
      lastTouched.set(id, now);
      // last_used_at is advisory: written at most once a minute per key per process, off the request path.
      touchKey(opts.db, id, now).catch((err) => request.log.warn({ err }, 'could not record key use'));
    }
    return context;
  };
  const cached = opts.keys.cached(secretHash);
  return cached ? used(cached) : opts.keys.find(secretHash).then(used);
}

/**
 * The access stages of the pipeline (docs/design.md#request-pipeline), in the order the API fixes:
 * `authenticate` (onRequest): the API key or console session, 401; `authorize` (preValidation, once
 * the body's bytes are read): the signature or CSRF token (403), the rate limit (429) and the scope
 * or role (403). Public routes (`config.scope === null`) skip both.
 */
export function accessChecks(app: App, opts: AuthOptions): { authenticate: onRequestHookHandler; authorize: preValidationHookHandler } {
  const lastTouched = new Map<number, number>();
  app.decorateRequest('auth', null as never);

  // Callback hooks: a request whose key is cached and whose rate limit is counted in this process
  // passes both stages without a promise (docs/design.md#request-pipeline).
  const authenticate: onRequestHookHandler = (request, _reply, done) => {
    const config = routeOf(request).config;
    if (config.session && request.headers.authorization !== undefined) {
      throw new AppError('forbidden', 'This route serves console sessions only; API keys are not accepted here.');
    }
    if (isPublic(request)) return done();
    // A request with Authorization is judged by its key alone; without one, the session cookie may authenticate it.
    if (request.headers.authorization === undefined) {
      const token = request.cookies?.[SESSION_COOKIE];
      if (token) {
        opts.authenticateSession(token, request).then((session) => {
          if (!session) return done(new AppError('unauthorized', 'The console session has ended; sign in again.'));
          request.auth = session;
          done();
        }, done);
        return;
      }
      if (config.session === 'only') throw new AppError('unauthorized', 'Sign in to the console first.');
    }
    const auth = authenticateApiKey(opts, request, lastTouched);
    if (auth instanceof Promise) {
      auth.then((context) => {
        request.auth = context;
        done();
      }, done);
      return;
    }
    request.auth = auth;
    done();
  };

  const checked = (request: FastifyRequest, reply: FastifyReply, hit: RateLimitHit): void => {
    const config = routeOf(request).config;
    const scope = config.scope;
    // Every authenticated request counts against the key's budget and carries the RateLimit-* headers,
    // the refused ones too; the signature verdict is still given before the rate-limit one.
    const limit = request.auth.rateLimitPerMinute;
    const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
    reply.header('RateLimit-Limit', String(limit));
    reply.header('RateLimit-Remaining', String(Math.max(0, limit - hit.count)));
    reply.header('RateLimit-Reset', String(resetSeconds));
    const session = request.auth.session;
    const signature = request.headers['x-service-signature'];
    if (session) {
      // The cookie rides along on any request the browser makes; only the console can read and echo the token.
      if (!csrfMatches(request, session.csrfToken)) throw new AppError('forbidden', "A console write needs the session's X-CSRF-Token header.");
    } else if (signature !== undefined) {
      const secret = readBearer(request.headers.authorization) ?? '';
      const value = Array.isArray(signature) ? signature.join(',') : signature;
      if (!signatureMatches(secret, request.rawBody, value)) {
        throw new AppError('forbidden', 'X-Service-Signature does not match the request body.');
      }
    }
    if (hit.count > limit) {
      throw new AppError('rate_limited', `Rate limit of ${limit} requests per minute reached; retry in ${resetSeconds} s.`, {
        headers: { 'Retry-After': String(resetSeconds) },
      });
    }
    if (session) {
      if (config.role === 'admin' && session.role === 'member') {
        throw new AppError('forbidden', 'This needs the owner or admin role; members cannot do it.');
      }
    } else if (scope !== null && scope !== undefined && !grantsAny(request.auth.scopes, scope)) {
      const needed = typeof scope === 'string' ? `the scope "${scope}"` : `any of the scopes ${scope.map((s) => `"${s}"`).join(', ')}`;
      throw new AppError('forbidden', `This API key lacks ${needed}.`, { extra: { required_scopes: satisfyingScopes(scope) } });
    }
  };

  const authorize: preValidationHookHandler = (request, reply, done) => {
    if (isPublic(request)) return done();
    const hit = opts.store.hit(`key:${request.auth.rateLimitKey}`, WINDOW_MS);
    if (hit instanceof Promise) {
      hit.then((h) => {
        try {
          checked(request, reply, h);
        } catch (err) {
          return done(err as Error);
        }
        done();
      }, done);
      return;
    }
    checked(request, reply, hit);
    done();
  };

  return { authenticate, authorize };
}
