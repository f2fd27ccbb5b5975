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
