import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { successResponse } from '../../http/answer.ts';
import { routeOf } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../lib/crypto.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import type { IdempotencyClaim, StoredResponse } from '../../lib/write.ts';
import * as repo from './idempotency.repository.ts';

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
    /** The Idempotency-Key this request holds; routes pass it to the service they call. */
    idempotency: IdempotencyClaim | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;

/** A string as JSON.stringify writes it: most hold nothing it escapes (quote, backslash, controls, surrogates) and are only quoted. */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate is escaped only when lone: leave every string holding one to JSON.stringify.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * JSON with object keys sorted, so the same body in another key order has the same fingerprint
 * (`idempotency_key` and undefined members left out). Stored fingerprints depend on these exact
 * bytes: each value is written as JSON.stringify writes it. Loops and string appends, because it
 * runs on every write with a key and every replay.
 */
function canonical(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // A hole (never in decoded JSON) is written as nothing, as Array.prototype.join writes it.
      if (i in value) out += canonical(value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // Own enumerable string keys, unique, so the default code-unit sort is the whole order.
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (key === 'idempotency_key' || member === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${quoted(key)}:${canonical(member)}`;
  }
  return `${out}}`;
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${canonical(body ?? null)}`);
}

/** The request's path without its query string. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The key a request gives: the `Idempotency-Key` header, else the body's `idempotency_key`. */
function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  const fromBody = (request.body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  const key = typeof header === 'string' ? header : typeof fromBody === 'string' ? fromBody : undefined;
  if (key !== undefined && (key.length === 0 || key.length > MAX_KEY_LENGTH)) {
    throw validationError({ [typeof header === 'string' ? 'Idempotency-Key' : 'idempotency_key']: key.length ? 'too_long' : 'too_short' });
  }
  return key;
}

/**
 * Statuses whose answer is kept for the key. A 422 or 429 refused the request before it ran and
 * a 409 may resolve, so a retry runs again; a 5xx wrote nothing (the write rolled back).
 */
function kept(status: number): boolean {
  return status < 500 && status !== 409 && status !== 422 && status !== 429;
}

/**
 * The idempotency stage of the pipeline, for every write of v1 (after validation, before the
 * handler). The `Idempotency-Key` header (or `idempotency_key` in the body; the header wins) of a
 * request already answered is replayed here: the first status and body, `Idempotent-Replayed:
 * true`, and nothing runs. Otherwise the request gets a claim (`request.idempotency`), which its
 * route passes to the service, and the service to `write` (lib/write.ts): the response is then
 * stored in the write's own transaction.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(async (app: App, opts) => {
  app.decorateRequest('idempotency', null);
  const seal = (text: string) => (opts.secretKey ? SEALED + encryptSecret(opts.secretKey, text) : text);
  const unseal = (stored: string) => (stored.startsWith(SEALED) && opts.secretKey ? decryptSecret(opts.secretKey, stored.slice(SEALED.length)) : stored);

  /** The stage's verdict once the key's record is read: replay it (or refuse), or give the request its claim. */
  const claimOrReplay = (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    fingerprint: string,
    now: number,
    existing: repo.IdempotencyRow | undefined,
  ): void => {
    if (existing && repo.isLive(existing, now)) {
      if (existing.request_hash !== fingerprint) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', { fields: { idempotency_key: 'reused' } });
      }
      if (existing.state !== 'done') {
        throw new AppError('conflict', 'The request with this Idempotency-Key was carried out, but its response was lost; it will not run again.');
      }
      replay(reply, { status: existing.response_status ?? 200, body: unseal(existing.response_body ?? ''), location: existing.location });
      return;
    }
    request.idempotency = {
      accountId: request.auth.accountId,
      key,
      fingerprint,
      expiresAt: now + opts.ttlHours * 3_600_000,
      respond: (result) => successResponse(request, reply, result),
      seal,
      stored: null,
    };
  };

  // A callback hook: a read, a write without a key, and (SQLite) a key whose record is read on the
  // connection at once pass without a promise; only a record read that waits makes one.
  app.addHook('preHandler', (request, reply, done) => {
    if (!WRITE_METHODS.has(request.method) || !routeOf(request).config.scope) return done();
    const key = keyOf(request);
    if (key === undefined) return done();
    const accountId = request.auth.accountId;
    const fingerprint = requestFingerprint(request.method, pathOf(request.url), request.body);
    const now = opts.clock.now();
    const read = repo.findKeyNow(opts.db, accountId, key);
    if (read) {
      claimOrReplay(request, reply, key, fingerprint, now, read.row);
      return done();
    }
    repo
      .findKey(opts.db, accountId, key)
      .then((existing) => claimOrReplay(request, reply, key, fingerprint, now, existing))
      .then(() => done(), done);
  });

  // A claim no write used: the request was refused after it started (a 404) or changed nothing.
  // Nothing was written, so storing its answer now, on its own, loses nothing in a crash.
  const storeUnused = async (reply: FastifyReply, payload: unknown, claim: NonNullable<FastifyRequest['idempotency']>): Promise<unknown> => {
    const location = reply.getHeader('location');
    const now = opts.clock.now();
    await repo.insertResponse(opts.db, {
      account_id: claim.accountId,
      key: claim.key,
      request_hash: claim.fingerprint,
      response_status: reply.statusCode,
      response_body: seal(typeof payload === 'string' ? payload : String(payload ?? '')),
      location: location ? String(location) : null,
      created_at: now,
      expires_at: claim.expiresAt,
    });
    return payload;
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    const claim = request.idempotency;
    if (!claim || claim.stored || !kept(reply.statusCode)) return done(null, payload);
    storeUnused(reply, payload, claim).then((kept) => done(null, kept), done);
  });
});

function replay(reply: FastifyReply, response: StoredResponse): FastifyReply {
  reply.header('Idempotent-Replayed', 'true');
  if (response.location) reply.header('Location', response.location);
  return reply.code(response.status).type('application/json; charset=utf-8').send(response.body);
}
