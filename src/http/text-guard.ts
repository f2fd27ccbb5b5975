import type { preValidationHookHandler } from 'fastify';
import { validationError } from '../lib/errors.ts';
import { routeOf } from './route.ts';

/** Whether any string or key in the value holds a NUL character (the common answer, no, without building paths). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsNul(value[i])) return true;
    return false;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record)) if (k.includes('\u0000') || holdsNul(record[k])) return true;
  }
  return false;
}

/** The path of the first string (or key) holding a NUL character, or null. */
export function findNul(value: unknown, path: string): string | null {
  return holdsNul(value) ? nulPath(value, path) : null;
}

function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}.${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (k.includes('\u0000')) return here;
      const found = nulPath(v, here);
      if (found !== null) return found;
    }
  }
  return null;
}

type Props = Record<string, { type?: unknown }>;

const INTEGER_TEXT = /^-?\d+$/;
/** The integer properties of each query or path schema, found once per schema object. */
const integerNames = new WeakMap<object, Set<string>>();
const NONE = new Set<string>();

function integersOf(schema: unknown): Set<string> {
  if (!schema || typeof schema !== 'object') return NONE;
  let names = integerNames.get(schema);
  if (!names) {
    const props = (schema as { properties?: Props }).properties ?? {};
    names = new Set(Object.keys(props).filter((name) => props[name]?.type === 'integer'));
    integerNames.set(schema, names);
  }
  return names;
}

/** A query or path value that should be an integer but is not spelled as one (`1e2`, `0x10`, `+5`, ` 1`). */
function badIntegerSpelling(values: unknown, schema: unknown): string | null {
  const integers = integersOf(schema);
  if (integers.size === 0 || !values || typeof values !== 'object') return null;
  for (const name of Object.keys(values)) {
    if (!integers.has(name)) continue;
    const value = (values as Record<string, unknown>)[name];
    if (Array.isArray(value)) {
      for (const v of value) if (typeof v === 'string' && !INTEGER_TEXT.test(v)) return name;
    } else if (typeof value === 'string' && !INTEGER_TEXT.test(value)) return name;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL (U+0000), and no field of this API needs it: a NUL anywhere in
 * the query, path or body is 422 `invalid_character` naming the field, on both engines alike.
 * Integer parameters must be spelled as decimal digits. A preValidation hook: runs on the decoded
 * body, after the access checks, before schema validation. It never waits: a callback hook.
 */
export const guardText: preValidationHookHandler = (request, _reply, done) => {
  const field = findNul(request.query, '') ?? findNul(request.params, '') ?? findNul(request.body, '');
  if (field !== null) throw validationError({ [field || 'body']: 'invalid_character' }, 'Text may not contain the NUL character (U+0000).');
  // Integers in the query and path are plain decimal digits: the coercing validator would take 1e2, 0x10 or +5.
  const schema = routeOf(request).schema;
  const spelled = badIntegerSpelling(request.query, schema?.querystring) ?? badIntegerSpelling(request.params, schema?.params);
  if (spelled !== null) throw validationError({ [spelled]: 'invalid_type' }, `${spelled} must be a whole number in decimal digits.`);
  done();
};
