import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { tooDeepField } from '../lib/metadata.ts';
import type { App } from './types.ts';

export const BODY_LIMIT = 1024 * 1024;
/** No operation takes JSON nested deeper; refusing it at decoding keeps every later walk of the body shallow. */
export const MAX_BODY_DEPTH = 32;

/**
 * Request bodies, in two stages of the pipeline (docs/design.md#request-pipeline).
 *
 * Reading: JSON only (any other content type, text/plain included, is `415 unsupported_media_type`),
 * at most 1 MiB (`413`). The bytes are kept as they arrived (`request.rawBody`, which the signature
 * check hashes) and stay the body until decoding.
 *
 * Decoding, the returned preValidation hook, runs after the access checks: a body that is not JSON
 * (`fields.body = invalid_json`), nests too deeply (`fields.<field> = too_deep`) or holds a
 * prototype key (`fields.<field> = forbidden_key`) is 422 there. An
 * empty body is an empty object, so its required fields are then named one by one.
 */
export function registerJsonBody(app: App): preValidationHookHandler {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  /** The decoded body, or the refusal. Fastify's JSON parser answers before it returns (it parses synchronously). */
  const decode = (request: FastifyRequest, raw: Buffer): { value: unknown } | AppError => {
    if (raw.length === 0) return { value: {} };
    const text = raw.toString('utf8');
    let outcome: { value: unknown } | AppError | undefined;
    parseJson(request, text, (err, value) => {
      outcome = err ? undecodable(text) : { value };
    });
    if (outcome === undefined) throw new Error('the JSON parser did not answer synchronously');
    if (outcome instanceof AppError) return outcome;
    const deep = tooDeepField(outcome.value, MAX_BODY_DEPTH);
    if (deep !== null) return new AppError('validation_error', 'The request body nests too deeply.', { fields: { [deep]: 'too_deep' } });
    return outcome;
  };

  app.decorateRequest('rawBody', undefined);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, body);
  });

  // A callback hook that never waits: decoding is synchronous, so no request makes a promise here.
  return (request, _reply, done) => {
    if (!Buffer.isBuffer(request.body)) return done();
    const decoded = decode(request, request.body);
    if (decoded instanceof AppError) return done(decoded);
    request.body = decoded.value;
    done();
  };
}

/**
 * Why a body the safe parser refused is refused: not JSON at all (`fields.body = invalid_json`), or
 * JSON holding a key that could reach an object's prototype (`__proto__`, `constructor.prototype`,
 * which the parser refuses rather than strips): `forbidden_key` on the top-level field that holds
 * it (`body` for an array), so the answer says what to change. `JSON.parse` makes such keys plain
 * own properties, so reading them here is safe.
 */
function undecodable(text: string): AppError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new AppError('validation_error', 'The request body is not valid JSON.', { fields: { body: 'invalid_json' } });
  }
  const deep = tooDeepField(value, MAX_BODY_DEPTH);
  if (deep !== null) return new AppError('validation_error', 'The request body nests too deeply.', { fields: { [deep]: 'too_deep' } });
  let field = 'body';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    field = Object.entries(value).find(([key, v]) => holdsForbiddenKey({ [key]: v }))?.[0] ?? 'body';
  }
  return new AppError('validation_error', 'The request body holds a key that is not allowed (__proto__, constructor.prototype).', {
    fields: { [field]: 'forbidden_key' },
  });
}

function holdsForbiddenKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsForbiddenKey);
  for (const [key, v] of Object.entries(value)) {
    if (key === '__proto__') return true;
    if (key === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) return true;
    if (holdsForbiddenKey(v)) return true;
  }
  return false;
}

/**
 * Route preValidation hook for operations whose body is optional (`'x-body-optional': true`): no
 * body at all is validated as the empty object. A body that was sent has been decoded by then, and
 * is validated as sent (a JSON `null` is still refused).
 */
export async function optionalBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}
