import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule.default ?? addFormatsModule);
const common = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };
function makeAjv(coerceTypes) {
    const ajv = new Ajv({ ...common, coerceTypes });
    addFormats(ajv);
    return ajv;
}
/**
 * Two validators: query strings and path params are text, so they are coerced to the schema's
 * types; JSON bodies are strict, so `"message": 123` is refused rather than silently stringified.
 */
export function buildValidatorCompiler(sharedSchemas) {
    const coercing = makeAjv('array');
    const strictBody = makeAjv(false);
    for (const s of sharedSchemas) {
        coercing.addSchema(s);
        strictBody.addSchema(s);
    }
    return ({ schema, httpPart }) => (httpPart === 'body' ? strictBody : coercing).compile(schema);
}
const REASONS = {
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
function fieldName(base, e) {
    const path = base.replace(/^\//, '').split('/').filter(Boolean).map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (e.keyword === 'required')
        path.push(String(e.params.missingProperty));
    if (e.keyword === 'additionalProperties')
        path.push(String(e.params.additionalProperty));
    return path.join('.') || 'body';
}
/** ajv errors → `fields` (first reason per field wins: the most specific comes first). */
export function fieldsFromAjv(errors) {
    const fields = {};
    // A failed anyOf/enum reports its branches too; keep the summary reason for the field.
    for (const e of errors) {
        const name = fieldName(e.instancePath, e);
        if (e.keyword === 'anyOf' || e.keyword === 'enum')
            fields[name] = REASONS[e.keyword];
    }
    for (const e of errors) {
        const name = fieldName(e.instancePath, e);
        // Own-property test: `??=` would see an inherited `valueOf`/`toString` and leave such a field unnamed.
        if (!Object.hasOwn(fields, name))
            fields[name] = REASONS[e.keyword] ?? 'invalid';
    }
    return fields;
}
