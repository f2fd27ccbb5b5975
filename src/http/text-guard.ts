import fp from 'fastify-plugin';
import { validationError } from '../lib/errors.ts';
import type { App } from './types.ts';

/** The path of the first string (or key) holding a NUL character, or null. */
export function findNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (k.includes('\u0000')) return here;
      const found = findNul(v, here);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL (U+0000), and no field of this API needs it: a NUL anywhere in
 * the query, path or body is 422 `invalid_character` naming the field, on both engines alike.
 * Runs after the authentication, signature, rate-limit and scope checks (registered after them).
 */
export const textGuardPlugin = fp(async (app: App) => {
  app.addHook('preValidation', async (request) => {
    const field = findNul(request.query, '') ?? findNul(request.params, '') ?? findNul(request.body, '');
    if (field !== null) throw validationError({ [field || 'body']: 'invalid_character' }, 'Text may not contain the NUL character (U+0000).');
  });
});
