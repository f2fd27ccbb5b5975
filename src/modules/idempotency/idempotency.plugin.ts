import { createHash } from 'node:crypto';
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
    /** The header key's record as the bytes stage read it, so the claim stage does not read it again. */
    idempotencyRead: { key: string; bytesFingerprint: string; row: repo.IdempotencyRow | undefined } | null;
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

/**
 * SHA-256 of the request as its bytes arrived: method, URL (path and query string, as sent) and
 * body. The same bytes decode to the same body, so equal byte fingerprints imply equal canonical
 * ones (not the reverse: another key order, spacing or query differs here, and is then compared by
 * `requestFingerprint` after the query and body passed their checks).
 */
export function bytesFingerprint(method: string, url: string, raw: Buffer): string {
  return createHash('sha256').update(`${method} ${url}\n`).update(raw).digest('hex');
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
 * The idempotency stages of the pipeline, for every write of v1. The `Idempotency-Key` header (or
 * `idempotency_key` in the body; the header wins) of a request already answered is replayed: the
 * first status and body, `Idempotent-Replayed: true`, and nothing runs. Otherwise the request gets
 * a claim (`request.idempotency`), which its route passes to the service, and the service to `write`
 * (lib/write.ts): the response is then stored in the write's own transaction.
 *
 * Two stages (docs/design.md#request-pipeline):
 * - bytes (preValidation, registered right after the access checks, before the body is decoded): a
 *   header key whose stored answer was given to the same method, URL and body bytes is replayed
 *   there. Those bytes decoded, passed validation and matched the key's fingerprint when first
 *   answered, so a retry sending them again skips decoding, validation and the canonical fingerprint.
 * - claim (preHandler, after validation): every other keyed request, compared by the canonical
 *   fingerprint of its decoded body (another key order or spacing is the same request).
 *
 * Stored answers are sealed (encrypted at rest with the secret key) when the route's answer can show
 * a credential (`config.answersCredential`, http/credentials.ts): a webhook endpoint's signing secret,
 * on creation and rotation. Other answers are stored as the records they copy are, in plain, and
 * replay without a decryption.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(async (app: App, opts) => {
  app.decorateRequest('idempotency', null);
  app.decorateRequest('idempotencyRead', null);
  const seal = (text: string) => (opts.secretKey ? SEALED + encryptSecret(opts.secretKey, text) : text);
  const plain = (text: string) => text;
  const unseal = (stored: string) => (stored.startsWith(SEALED) && opts.secretKey ? decryptSecret(opts.secretKey, stored.slice(SEALED.length)) : stored);

  const answered = (reply: FastifyReply, existing: repo.IdempotencyRow) =>
    replay(reply, { status: existing.response_status ?? 200, body: unseal(existing.response_body ?? ''), location: existing.location });

  /** Whether the request's stage applies: a write of the API (not a public route). */
  const keyed = (request: FastifyRequest) => WRITE_METHODS.has(request.method) && Boolean(routeOf(request).config.scope);

  /** The bytes stage's verdict once the header key's record is read: true when it replayed. */
  const replayIfSameBytes = (request: FastifyRequest, reply: FastifyReply, key: string, fingerprint: string, row: repo.IdempotencyRow | undefined): boolean => {
    if (!row || row.request_bytes_hash !== fingerprint || row.state !== 'done' || !repo.isLive(row, opts.clock.now())) {
      request.idempotencyRead = { key, bytesFingerprint: fingerprint, row };
      return false;
    }
    answered(reply, row);
    return true;
  };

  // A callback hook, as the claim stage below: only a record read that waits makes a promise. After
  // a replay it does not call on: the answer is sent and no later stage runs. It never refuses: when
  // the record cannot be read or opened here, the request goes on, and the claim stage (after
  // decoding and validation, as before this stage existed) reads it again and answers the failure.
  app.addHook('preValidation', (request, reply, done) => {
    const key = request.headers['idempotency-key'];
    const raw = request.body;
    if (!keyed(request) || typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !Buffer.isBuffer(raw)) return done();
    const fingerprint = bytesFingerprint(request.method, request.url, raw);
    const accountId = request.auth.accountId;
    let replayed = false;
    try {
      const read = repo.findKeyNow(opts.db, accountId, key);
      if (read === null) {
        repo
          .findKey(opts.db, accountId, key)
          .then((row) => replayIfSameBytes(request, reply, key, fingerprint, row))
          .then(
            (sent) => sent || done(),
            () => done(),
          );
        return;
      }
      replayed = replayIfSameBytes(request, reply, key, fingerprint, read.row);
    } catch {
      request.idempotencyRead = null;
    }
    if (!replayed) done();
  });

  /** The claim stage's verdict once the key's record is read: true when it replayed (or refused by throwing). */
  const claimOrReplay = (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    fingerprint: string,
    now: number,
    existing: repo.IdempotencyRow | undefined,
  ): boolean => {
    if (existing && repo.isLive(existing, now)) {
      if (existing.request_hash !== fingerprint) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', { fields: { idempotency_key: 'reused' } });
      }
      if (existing.state !== 'done') {
        throw new AppError('conflict', 'The request with this Idempotency-Key was carried out, but its response was lost; it will not run again.');
      }
      answered(reply, existing);
      return true;
    }
    const early = request.idempotencyRead;
    request.idempotency = {
      accountId: request.auth.accountId,
      key,
      fingerprint,
      bytesFingerprint:
        early?.key === key ? early.bytesFingerprint : Buffer.isBuffer(request.rawBody) ? bytesFingerprint(request.method, request.url, request.rawBody) : null,
      expiresAt: now + opts.ttlHours * 3_600_000,
      respond: (result) => successResponse(request, reply, result),
      seal: routeOf(request).config.answersCredential ? seal : plain,
      stored: null,
    };
    return false;
  };

  // A callback hook: a read, a write without a key, and (SQLite) a key whose record is read on the
  // connection at once pass without a promise; only a record read that waits makes one. The bytes
  // stage's read of the same key is used again, not repeated.
  app.addHook('preHandler', (request, reply, done) => {
    if (!keyed(request)) return done();
    const key = keyOf(request);
    if (key === undefined) return done();
    const accountId = request.auth.accountId;
    const fingerprint = requestFingerprint(request.method, pathOf(request.url), request.body);
    const now = opts.clock.now();
    const early = request.idempotencyRead;
    const read = early?.key === key ? early : repo.findKeyNow(opts.db, accountId, key);
    if (read) {
      if (!claimOrReplay(request, reply, key, fingerprint, now, read.row)) done();
      return;
    }
    // A refusal the verdict throws (reused key, conflict) reaches `done` as the request's error.
    repo
      .findKey(opts.db, accountId, key)
      .then((existing) => claimOrReplay(request, reply, key, fingerprint, now, existing))
      .then((replayed) => replayed || done(), done);
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
      request_bytes_hash: claim.bytesFingerprint,
      response_status: reply.statusCode,
      response_body: claim.seal(typeof payload === 'string' ? payload : String(payload ?? '')),
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
