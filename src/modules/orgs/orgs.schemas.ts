import { Type, type Static } from 'typebox';
import { Id, ListOf, Nullable, PageQuery, Timestamp } from '../../http/schemas.ts';

export const ExternalId = Type.Object(
  {
    source_app: Type.String({ description: 'Stable id of the integrating app.' }),
    external_org_id: Type.String({ description: "The integrator's own tenant id." }),
  },
  { $id: 'ExternalId', title: 'ExternalId' },
);

export const Org = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    domain: Nullable(Type.String()),
    external_ids: Type.Array(Type.Ref('ExternalId')),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Org', title: 'Org', description: 'A customer organization (target org) of the account.' },
);
export type OrgView = Static<typeof Org>;

export const OrgListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name or domain.' })),
  ...PageQuery,
});

export const OrgList = ListOf(Type.Ref('Org'), 'OrgList');

const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, description });
const IdempotencyKey = Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alternative to the Idempotency-Key header.' }));

export const OrgIdParams = Type.Object({ org_id: Id('Org id.') });
export const OrgPathParams = Type.Object({ id: Id('Org id.') });

export const ResolveBody = Type.Object(
  {
    source_app: Text(100, 'Stable id of the integrating app.'),
    external_org_id: Text(200, "The integrator's own tenant id."),
    org_name: Type.Optional(Text(200, 'Lookup hint: the org name, matched case-insensitively and exactly.')),
    contact_email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'Lookup hint: an e-mail of a contact of the org.' })),
    contact_name: Type.Optional(Text(200, 'Narrows several candidate orgs to those with a contact of this name (case-insensitive).')),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
export type ResolveInput = Static<typeof ResolveBody>;

export const ResolveResult = Type.Object(
  {
    status: Type.Enum(['mapped', 'linked'], { description: '`mapped`: the pair was already linked; `linked`: this call linked it.' }),
    org: Type.Ref('Org'),
  },
  { title: 'ResolveResult' },
);

export const ExternalIdBody = Type.Object(
  {
    source_app: Text(100, 'Stable id of the integrating app.'),
    external_org_id: Text(200, "The integrator's own tenant id."),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);

export const CreateOrgBody = Type.Object(
  {
    name: Text(200, 'Organization name.'),
    // One schema with a type list (not anyOf) so a malformed domain is reported as invalid_format.
    domain: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        format: 'hostname',
        minLength: 1,
        maxLength: 253,
        description: 'Web domain, e.g. `acme.io`; null for none.',
      }),
    ),
    external_ids: Type.Optional(
      Type.Array(Type.Object({ source_app: Text(100), external_org_id: Text(200) }, { additionalProperties: false }), {
        maxItems: 50,
        uniqueItems: true,
        description: 'Pairs to link at once; each must not be linked to another org.',
      }),
    ),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
export type CreateOrgInput = Static<typeof CreateOrgBody>;
