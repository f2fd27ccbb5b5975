import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => void;

const common: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes });
  addFormats(ajv);
  return ajv;
}

/**
 * Two validators: query strings and path params are text, so they are coerced to the schema's
 * types; JSON bodies are strict, so `"message": 123` is refused rather than silently stringified.
 */
export function buildValidatorCompiler(sharedSchemas: object[]): FastifySchemaCompiler<FastifySchema> {
  const coercing = makeAjv('array');
  const strictBody = makeAjv(false);
  for (const s of sharedSchemas) {
    coercing.addSchema(s);
    strictBody.addSchema(s);
  }
  // Compiled on the first request that needs it rather than at start-up (as the serializers, see
  // serialization.ts): a process is ready sooner, and a route never called costs nothing.
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strictBody : coercing;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= ajv.compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

const REASONS: Record<string, string> = {
  required: 'required',
  type: 'invalid_type',
  enum: 'invalid_enum',
  const: 'invalid_enum',
  anyOf: 'invalid',
  format: 'invalid_format',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  maximum: 'too_large',
  exclusiveMaximum: 'too_large',
  minLength: 'too_short',
  maxLength: 'too_long',
  minItems: 'too_short',
  maxItems: 'too_long',
  uniqueItems: 'duplicate',
  additionalProperties: 'unknown_field',
  pattern: 'invalid_format',
};

function fieldName(base: string, e: ErrorObject): string {
  const path = base
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  return path.join('.') || 'body';
}

/** ajv errors → `fields` (first reason per field wins: the most specific comes first). */
export function fieldsFromAjv(errors: ErrorObject[]): Record<string, string> {
  const fields: Record<string, string> = {};
  // A failed anyOf/enum reports its branches too; keep the summary reason for the field.
  for (const e of errors) {
    const name = fieldName(e.instancePath, e);
    if (e.keyword === 'anyOf' || e.keyword === 'enum') fields[name] = REASONS[e.keyword];
  }
  for (const e of errors) {
    const name = fieldName(e.instancePath, e);
    // Own-property test: `??=` would see an inherited `valueOf`/`toString` and leave such a field unnamed.
    if (!Object.hasOwn(fields, name)) fields[name] = REASONS[e.keyword] ?? 'invalid';
  }
  return fields;
}
