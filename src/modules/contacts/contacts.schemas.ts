import { Type, type Static } from 'typebox';
import { Id, ListOf, Nullable, PageQuery, SortQuery, Timestamp } from '../../http/schemas.ts';

export const Contact = Type.Object(
  {
    id: Id(),
    org_id: Id('The customer organization the contact belongs to.'),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    title: Nullable(Type.String({ description: 'Job title.' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Contact', title: 'Contact', description: 'A person at a customer organization.' },
);
export type ContactView = Static<typeof Contact>;

export const MarketingAudience = Type.Object(
  { id: Id(), name: Type.String() },
  { $id: 'MarketingAudience', title: 'MarketingAudience', description: 'A named marketing list of the account.' },
);
export type AudienceView = Static<typeof MarketingAudience>;

export const CONTACT_SORTS = ['created_at', 'updated_at', 'id'] as const;

export const ContactListQuery = Type.Object({
  org_id: Type.Optional(Id('Only contacts of this organization (404 `org_not_found` when it is not in the account).')),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'Exact e-mail address, compared case-insensitively.' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name or e-mail.' })),
  ...SortQuery([...CONTACT_SORTS]),
  ...PageQuery,
});

export const ContactList = ListOf(Type.Ref('Contact'), 'ContactList');
export const AudienceList = ListOf(Type.Ref('MarketingAudience'), 'MarketingAudienceList');

export const AudienceListQuery = Type.Object({ ...PageQuery });

const IdempotencyKey = Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alternative to the Idempotency-Key header.' }));
const OptionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));

export const CreateContactBody = Type.Object(
  {
    org_id: Id('A customer organization of the account.'),
    name: OptionalText(200),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    phone: OptionalText(50),
    title: OptionalText(200, 'Job title.'),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
export type CreateContactInput = Static<typeof CreateContactBody>;

export const CreateAudienceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique in the account (exact match).' }),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);

/** A contact can be in at most this many audiences, so a membership answer always fits one page. */
export const MAX_MEMBERSHIPS = 100;

const AudienceIds = (description: string) => Type.Array(Id(), { maxItems: MAX_MEMBERSHIPS, description: `${description} Repeated ids count once.` });

export const ReplaceMembershipsBody = Type.Object(
  {
    audience_ids: AudienceIds('The complete new set of audiences of the contact ([] removes all).'),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);

export const RemoveMembershipsBody = Type.Object(
  {
    audience_ids: Type.Optional(AudienceIds('Audiences to leave; without it (or without a body) the contact leaves every audience.')),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
