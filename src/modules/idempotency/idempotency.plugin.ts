import fp from 'fastify-plugin';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../lib/crypto.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import type { App } from '../../http/types.ts';
import * as repo from './idempotency.repository.ts';
import { requestScope } from './request-scope.ts';
import type { FastifyRequest } from 'fastify';

export interface IdempotencyOptions {
  db: Db;
  clock: Clock;
  ttlHours: number;
  /** Encrypts stored responses at rest (they may hold a webhook signing secret shown once). */
  secretKey: Buffer | null;
}

/** Prefix of a stored response encrypted at rest (secret-key rotation re-encrypts these). */
export const SEALED = 'enc:v1:';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { id: number } | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A record still "running" after this long belongs to a request whose process died: it may be taken over. */
export const ABANDONED_AFTER_MS = 5 * 60_000;
const MAX_KEY_LENGTH = 255;

/** JSON with object keys sorted, so the same body in another key order has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => k !== 'idempotency_key' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function holdClaim(request: FastifyRequest, id: number): void {
  request.idempotency = { id };
  const scope = requestScope.getStore();
  if (scope) scope.claimId = id;
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${canonical(body ?? null)}`);
}

/**
 * Idempotency for every write of v1: the `Idempotency-Key` header (or `idempotency_key` in the
 * body; the header wins) is claimed in the database before the handler runs, so it holds
 * across processes. A replay answers the first status and body with `Idempotent-Replayed: true`.
 * Validation failures (422) and server errors (5xx) are not stored: the caller may fix and retry.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(async (app: App, opts) => {
  app.decorateRequest('idempotency', null);

  // Every request runs in a scope its write transactions can see (see inTransaction).
  app.addHook('onRequest', (_request, _reply, done) => {
    requestScope.run({ claimId: null, committed: false }, done);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || !request.routeOptions.config.scope) return;
    const header = request.headers['idempotency-key'];
    const fromBody = (request.body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
    const key = typeof header === 'string' ? header : typeof fromBody === 'string' ? fromBody : undefined;
    if (key === undefined) return;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw validationError({ [typeof header === 'string' ? 'Idempotency-Key' : 'idempotency_key']: key.length ? 'too_long' : 'too_short' });
    }
    const accountId = request.auth.accountId;
    const hash = requestFingerprint(request.method, request.url.split('?')[0], request.body);
    const now = opts.clock.now();
    const expiresAt = now + opts.ttlHours * 3_600_000;
    const claimed = await repo.claimKey(opts.db, { account_id: accountId, key, request_hash: hash, created_at: now, expires_at: expiresAt });
    if (claimed !== null) {
      holdClaim(request, claimed);
      return;
    }
    const existing = await repo.findKey(opts.db, accountId, key);
    // A request whose write committed (committed_at, set in its own transaction) is never run again,
    // even if its process died before the response was stored.
    const abandoned = existing && existing.state === 'running' && existing.committed_at === null && now - existing.created_at > ABANDONED_AFTER_MS;
    const stale = existing && (existing.expires_at <= now || abandoned);
    if (!existing || stale) {
      const retaken = existing && (await repo.retakeKey(opts.db, existing.id, existing.created_at, { request_hash: hash, created_at: now, expires_at: expiresAt }));
      if (retaken) {
        holdClaim(request, existing.id);
        return;
      }
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress; retry later.');
    }
    if (existing.request_hash !== hash) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
        fields: { idempotency_key: 'reused' },
      });
    }
    if (existing.state === 'running' && existing.committed_at !== null && now - existing.created_at > ABANDONED_AFTER_MS) {
      throw new AppError('conflict', 'The request with this Idempotency-Key was carried out, but its response was lost; it will not run again.');
    }
    if (existing.state === 'running') {
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress; retry later.');
    }
    reply.header('Idempotent-Replayed', 'true');
    if (existing.location) reply.header('Location', existing.location);
    const stored = existing.response_body ?? '';
    const body = stored.startsWith(SEALED) && opts.secretKey ? decryptSecret(opts.secretKey, stored.slice(SEALED.length)) : stored;
    return reply.code(existing.response_status ?? 200).type('application/json; charset=utf-8').send(body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    const status = reply.statusCode;
    // A refused or failed request is forgotten so it can be corrected and retried, unless its write committed.
    if ((status >= 500 || status === 422 || status === 429) && !requestScope.getStore()?.committed) {
      await repo.releaseKey(opts.db, claim.id);
    } else {
      const location = reply.getHeader('location');
      const text = typeof payload === 'string' ? payload : String(payload ?? '');
      const stored = opts.secretKey ? SEALED + encryptSecret(opts.secretKey, text) : text;
      await repo.completeKey(opts.db, claim.id, status, stored, location ? String(location) : null);
    }
    return payload;
  });
});
