import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tableCounts } from './counts.ts';
import type { Harness } from './harness.ts';
import { assertError } from './route-checks.ts';

/** Fixture rows for the orgs, contacts and support suites, inserted directly (no API) with given timestamps. */
export async function insertOrg(h: Harness, accountId: number, name: string, at = Date.UTC(2026, 0, 1), domain: string | null = null): Promise<number> {
  const r = await h.db
    .insertInto('orgs')
    .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertContact(
  h: Harness,
  accountId: number,
  orgId: number,
  fields: { email?: string | null; name?: string | null; phone?: string | null; title?: string | null },
  at = Date.UTC(2026, 0, 1),
  updated = at,
): Promise<number> {
  const email = fields.email ?? null;
  const name = fields.name ?? null;
  const r = await h.db
    .insertInto('contacts')
    .values({
      account_id: accountId,
      org_id: orgId,
      name,
      name_lc: name?.toLowerCase() ?? null,
      email,
      email_lc: email?.toLowerCase() ?? null,
      phone: fields.phone ?? null,
      title: fields.title ?? null,
      created_at: at,
      updated_at: updated,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function linkPair(h: Harness, accountId: number, orgId: number, sourceApp: string, externalOrgId: string): Promise<void> {
  await h.db
    .insertInto('org_external_ids')
    .values({ account_id: accountId, org_id: orgId, source_app: sourceApp, external_org_id: externalOrgId, created_at: Date.UTC(2026, 0, 1) })
    .execute();
}

export interface FieldSpec {
  kind: 'string' | 'email' | 'id' | 'object' | 'array' | 'enum';
  required?: boolean;
  nullable?: boolean;
}

export interface BadBody {
  body: Record<string, unknown>;
  /** The field the 422 must name. */
  field: string;
}

function deep(levels: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < levels; i++) v = { nested: v };
  return v;
}

const HUGE = 'x'.repeat(100 * 1024);
const BAD_EMAILS = ['not-an-email', 'a@', '@b.io', 'a b@c.io', 'a@b@c.io', ''];

/**
 * Bad bodies derived from a valid one: a required field missing, a wrong type, null where not
 * allowed, an empty or 100 KB string, deep nesting, a malformed e-mail, an unknown field.
 */
export function badBodies(valid: Record<string, unknown>, spec: Record<string, FieldSpec>): fc.Arbitrary<BadBody> {
  const names = Object.keys(spec);
  const wrongValue = (s: FieldSpec): fc.Arbitrary<unknown> => {
    const options: fc.Arbitrary<unknown>[] = [fc.constant(deep(60)), fc.boolean()];
    if (s.kind !== 'array') options.push(fc.array(fc.integer(), { maxLength: 3 }));
    if (!s.nullable) options.push(fc.constant(null));
    if (s.kind === 'object' || s.kind === 'array') options.push(fc.string(), fc.integer());
    else options.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }));
    if (s.kind === 'id') options.push(fc.constant(0), fc.constant(-3), fc.constant(1.5), fc.constant('12'), fc.constant(2 ** 60));
    else if (s.kind !== 'object' && s.kind !== 'array') options.push(fc.integer(), fc.constant(''), fc.constant(HUGE));
    if (s.kind === 'email') options.push(fc.constantFrom(...BAD_EMAILS));
    if (s.kind === 'enum') options.push(fc.constantFrom('bogus', 'OPEN', ' open'));
    return fc.oneof(...options);
  };
  const mutated = fc.constantFrom(...names).chain((field) => wrongValue(spec[field]).map((value) => ({ body: { ...valid, [field]: value }, field })));
  const required = names.filter((n) => spec[n].required);
  const missing = required.length
    ? fc.constantFrom(...required).map((field) => {
        const body = { ...valid };
        delete body[field];
        return { body, field };
      })
    : mutated;
  const extra = fc.constantFrom('unexpected', 'org', 'account_id', '__proto__x').chain((field) =>
    fc
      .jsonValue()
      // Prototype-poisoning keys are refused by the JSON parser itself (fields.body = invalid_json): not this case.
      .filter((value) => !/"(__proto__|constructor)"/.test(JSON.stringify(value)))
      .map((value) => ({ body: { ...valid, [field]: value }, field })),
  );
  return fc.oneof(mutated, missing, extra);
}

/**
 * Bad bodies from listed bad values: `base` with each `[field, value]` of `bad`, with an unknown field
 * (any name not in `allowed`), and without each of the `required` fields.
 */
export function listedBadBodies(base: Record<string, unknown>, bad: [string, unknown][], allowed: string[], required: string[]): fc.Arbitrary<BadBody> {
  return fc.oneof(
    fc.constantFrom(...bad).map(([field, v]) => ({ field, body: { ...base, [field]: v } })),
    fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((k) => !allowed.includes(k) && k !== '__proto__' && k !== 'constructor')
      .map((k) => ({ field: k, body: { ...base, [k]: true } })),
    fc.constantFrom(...required).map((field) => {
      const body = { ...base };
      delete body[field];
      return { field, body };
    }),
  );
}

/**
 * Every generated body is refused with 422 naming its field (with `within`, a path inside it counts
 * too: `lost_reason.code` for `lost_reason`), and nothing is written.
 */
export async function assertRefusesAll(
  h: Harness,
  bodies: fc.Arbitrary<BadBody>,
  send: (body: Record<string, unknown>) => Promise<{ statusCode: number; headers: Record<string, unknown>; json: () => any }>,
  options: { numRuns: number; within?: boolean },
): Promise<void> {
  const before = await tableCounts(h.db);
  await fc.assert(
    fc.asyncProperty(bodies, async ({ body, field }) => {
      const fields = Object.keys(assertError(await send(body), 422, 'validation_error').fields ?? {});
      const named = fields.some((f) => f === field || (options.within === true && f.startsWith(`${field}.`)));
      assert.ok(named, `${field} named in ${JSON.stringify(fields)}`);
    }),
    { numRuns: options.numRuns },
  );
  assert.deepEqual(await tableCounts(h.db), before);
}
