import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serialize = (data: unknown) => string;

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);
/** Keywords of a primitive branch that leave the serialized text as it is (FJS writes strings, numbers and booleans alike whatever they say). */
const PLAIN_KEYWORDS = new Set(['type', 'format', 'description', 'examples', 'title', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNull = (v: unknown) => isRecord(v) && v.type === 'null' && Object.keys(v).length === 1;
const isPlainPrimitive = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && typeof v.type === 'string' && PRIMITIVES.has(v.type) && Object.keys(v).every((k) => PLAIN_KEYWORDS.has(k));

/**
 * The schema fast-json-stringify is given for a response: each `anyOf: [<string|integer|number|boolean>, null]`
 * (the API's nullable fields) as `type: [<type>, 'null']`. Both write the same text for every value the
 * schema allows; for `anyOf`, FJS runs an Ajv validation of the value against each branch to choose
 * one (a date-time format check for each nullable timestamp) on every response, for a type list it
 * tests the value's JavaScript type. Copies: the route's schema objects (also the OpenAPI document's) are not touched.
 */
export function nullableAsTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypes);
  if (!isRecord(schema)) return schema;
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(schema).every((k) => k === 'anyOf' || k === 'description')) {
    const [a, b] = anyOf;
    const value = isNull(b) ? a : isNull(a) ? b : null;
    if (isPlainPrimitive(value))
      return { ...value, ...(schema.description === undefined ? {} : { description: schema.description }), type: [value.type, 'null'] };
  }
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) copy[k] = nullableAsTypes(v);
  return copy;
}

/**
 * Fastify's response serializers (fast-json-stringify), compiled once per distinct schema, on the
 * first response that needs it, instead of once per route and status at start-up. Every route
 * declares the same error responses, and compiling each anew (with every shared schema cloned and
 * indexed each time) was most of the process's start-up time; compiled lazily, a process is ready
 * in a fraction of it and pays a few milliseconds once per response schema it actually sends. A
 * compiled serializer depends only on its schema and the shared schemas, so one serves every
 * route whose response schema is equal to the letter. (The OpenAPI tests send every route, so a
 * schema fast-json-stringify cannot compile still fails the suite.)
 */
export const buildCachedSerializer: BuildSerializer = (externalSchemas, serializerOpts) => {
  // A compiler of its own per schema: the stock one drops a response schema's own $id from the shared
  // schemas it keeps, which would leave that schema unresolvable for every later compilation.
  // Shared schemas are simplified once, on the first compilation (nullableAsTypes).
  let shared: unknown;
  const compile: ReturnType<BuildSerializer> = (route) => {
    shared ??= nullableAsTypes(externalSchemas);
    return SerializerSelector()(shared as typeof externalSchemas, serializerOpts)({ ...route, schema: nullableAsTypes(route.schema) as typeof route.schema });
  };
  const compiled = new Map<string, Serialize>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    const cached = compiled.get(key);
    if (cached) return cached;
    let serialize: Serialize | undefined;
    const lazy: Serialize = (data) => {
      serialize ??= compile(route) as Serialize;
      return serialize(data);
    };
    compiled.set(key, lazy);
    return lazy;
  };
};
