import assert from 'node:assert/strict';
import fc from 'fast-check';

export interface BadBody {
  field: string;
  body: Record<string, unknown>;
}

/**
 * Bodies a write must refuse with 422 naming `field`: `base` with each listed bad value, with an
 * unknown field (any name not in `allowed`), and without each of the `required` fields.
 */
export function badBodies(base: Record<string, unknown>, bad: [string, unknown][], allowed: string[], required: string[]): fc.Arbitrary<BadBody> {
  return fc.oneof(
    fc.constantFrom(...bad).map(([field, v]) => ({ field, body: { ...base, [field]: v } })),
    fc.string({ minLength: 1, maxLength: 20 })
      .filter((k) => !allowed.includes(k) && k !== '__proto__' && k !== 'constructor')
      .map((k) => ({ field: k, body: { ...base, [k]: true } })),
    fc.constantFrom(...required).map((field) => {
      const body = { ...base };
      delete body[field];
      return { field, body };
    }),
  );
}

/** The 422's `fields` name `field` (or a path inside it). */
export function assertNamesField(error: { fields?: Record<string, string> }, field: string): void {
  assert.ok(Object.keys(error.fields ?? {}).some((f) => f === field || f.startsWith(`${field}.`)), `${field} not named in ${JSON.stringify(error.fields)}`);
}
