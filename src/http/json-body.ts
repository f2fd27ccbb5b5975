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
 * (`fields.body = invalid_json`) or nests too deeply (`fields.<field> = too_deep`) is 422 there. An
 * empty body is an empty object, so its required fields are then named one by one.
 */
export function registerJsonBody(app: App): preValidationHookHandler {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decode = (request: FastifyRequest, raw: Buffer): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (raw.length === 0) return resolve({});
      parseJson(request, raw.toString('utf8'), (err, value) => {
        if (err) return reject(new AppError('validation_error', 'The request body is not valid JSON.', { fields: { body: 'invalid_json' } }));
        const deep = tooDeepField(value, MAX_BODY_DEPTH);
        if (deep !== null) return reject(new AppError('validation_error', 'The request body nests too deeply.', { fields: { [deep]: 'too_deep' } }));
        resolve(value);
      });
    });

  app.decorateRequest('rawBody', undefined);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, body);
  });

  // A callback hook: a request without a body passes without a promise.
  return (request, _reply, done) => {
    if (!Buffer.isBuffer(request.body)) return done();
    decode(request, request.body).then((value) => {
      request.body = value;
      done();
    }, done);
  };
}

/**
 * Route preValidation hook for operations whose body is optional (`'x-body-optional': true`): no
 * body at all is validated as the empty object. A body that was sent has been decoded by then, and
 * is validated as sent (a JSON `null` is still refused).
 */
export async function optionalBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}
