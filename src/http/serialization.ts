import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serialize = (data: unknown) => string;

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
  const compile: ReturnType<BuildSerializer> = (route) => SerializerSelector()(externalSchemas, serializerOpts)(route);
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
