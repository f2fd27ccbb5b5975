import { type ErrorObject } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
/**
 * Two validators: query strings and path params are text, so they are coerced to the schema's
 * types; JSON bodies are strict, so `"message": 123` is refused rather than silently stringified.
 */
export declare function buildValidatorCompiler(sharedSchemas: object[]): FastifySchemaCompiler<FastifySchema>;
/** ajv errors → `fields` (first reason per field wins: the most specific comes first). */
export declare function fieldsFromAjv(errors: ErrorObject[]): Record<string, string>;
