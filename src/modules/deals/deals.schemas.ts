import { Type, type Static } from 'typebox';
import { DateParam, Id, ListOf, Nullable, NullableTimestamp, PageQuery, SortQuery, Timestamp, TitleAndCreatedQuery } from '../../http/schemas.ts';

export const DEAL_STATUSES = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
export const OPEN_STATUSES = ['new', 'qualified', 'proposal', 'negotiation'] as const;
export const ACTIVITY_KINDS = ['note', 'email', 'call', 'meeting'] as const;
export const OUTCOMES = ['success', 'failed', 'skipped'] as const;

const LostReasonOut = Type.Object({ code: Type.String(), label: Type.String() }, { description: 'Why a lost deal was lost.' });

export const Deal = Type.Object(
  {
    id: Id(),
    org_id: Id('The customer org the deal belongs to.'),
    contact_id: Nullable(Id()),
    owner_user_id: Nullable(Id()),
    title: Type.String(),
    status: Type.Enum([...DEAL_STATUSES], { description: 'Open: new, qualified, proposal, negotiation (funnel order). Closed: won, lost.' }),
    value: Nullable(Type.String({ description: 'Decimal string with two decimals, e.g. "1250.00".', examples: ['1250.00'] })),
    currency: Nullable(Type.String({ description: 'ISO-4217 code, upper-case.' })),
    payment_customer_id: Nullable(Type.String({ description: 'The external payment-provider customer id.' })),
    next_followup_at: NullableTimestamp(),
    lost_reason: Nullable(LostReasonOut),
    closed_at: NullableTimestamp('When the deal was last marked won or lost; null while open.'),
    closed_by_user_id: Nullable(Id('The team user who closed it; null when closed through an API key.')),
    last_activity_at: Timestamp('The newest timeline activity logged on the deal, or its creation time when it has none.'),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Deal', title: 'Deal', description: 'A sales opportunity with a customer org.' },
);
export type DealView = Static<typeof Deal>;

export const DealActivity = Type.Object(
  {
    id: Id(),
    deal_id: Id(),
    event_type: Type.Enum([...ACTIVITY_KINDS], { description: 'The activity kind.' }),
    message: Type.String(),
    outcome: Nullable(Type.Enum([...OUTCOMES])),
    source_app: Nullable(Type.String()),
    external_reference: Nullable(Type.String()),
    metadata: Nullable(Type.Object({}, { additionalProperties: true, description: 'Opaque JSON object, as given in metadata_json.' })),
    user_id: Nullable(Id('The team user who logged it; null when logged through an API key.')),
    created_at: Timestamp(),
  },
  { $id: 'DealActivity', title: 'DealActivity', description: 'A timeline entry of a deal.' },
);
export type DealActivityView = Static<typeof DealActivity>;

export const DealList = ListOf(Type.Ref('Deal'), 'DealList');
export const DealActivityList = ListOf(Type.Ref('DealActivity'), 'DealActivityList');

export const DealListQuery = Type.Object({
  status: Type.Optional(Type.Enum([...DEAL_STATUSES], { description: 'Only deals in this status.' })),
  org_id: Type.Optional(Id('Only deals of this customer org.')),
  owner_user_id: Type.Optional(Id('Only deals owned by this team user.')),
  contact_id: Type.Optional(Id('Only deals of this contact (404 `contact_not_found` if not in the account).')),
  ...TitleAndCreatedQuery,
  updated_from: Type.Optional(DateParam('Updated at or after (inclusive).')),
  updated_to: Type.Optional(DateParam('Updated at or before (inclusive; a bare date covers the whole day).')),
  ...SortQuery(['created_at', 'updated_at', 'id', 'title', 'status']),
  ...PageQuery,
});
export type DealListQueryT = Static<typeof DealListQuery>;

export const DealSearchQuery = Type.Object({
  payment_customer_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Exact external payment-provider customer id.' })),
  contact_email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: "The deal contact's e-mail, case-insensitive, exact." })),
  org_id: Type.Optional(Id('Customer org id.')),
  ...PageQuery,
});
export type DealSearchQueryT = Static<typeof DealSearchQuery>;

export const ActivityListQuery = Type.Object({
  ...SortQuery(['created_at', 'id']),
  ...PageQuery,
});

export const ActivityParams = Type.Object({ id: Id('Deal id.'), activity_id: Id('Activity id.') });

const IdempotencyKey = Type.String({ description: 'Alternative to the Idempotency-Key header (the header wins).' });
const Title = Type.String({ minLength: 1, maxLength: 500 });
// Semantics (two decimals, >= 0, bound) are checked in the service so the error names the reason.
const Money = Type.Union([Type.String(), Type.Number()], { description: 'Decimal string or number, at most two decimals, >= 0.', examples: ['1250.00'] });
const Currency = Type.String({ pattern: '^[A-Za-z]{3}$', description: 'Three-letter ISO-4217 code; stored upper-case.' });
const LostReasonIn = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 100 }), label: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false, description: 'Only for status lost.' },
);
const DateTimeIn = Type.String({ maxLength: 40, description: 'ISO-8601 date-time (with or without Z) or YYYY-MM-DD (start of that UTC day).' });

// The optional fields creating and changing a deal share (null clears one).
const ValueFields = { value: Type.Optional(Nullable(Money)), currency: Type.Optional(Nullable(Currency)) };
const FollowUpFields = { next_followup_at: Type.Optional(Nullable(DateTimeIn)), lost_reason: Type.Optional(Nullable(LostReasonIn)) };

export const CreateDealBody = Type.Object(
  {
    org_id: Id(),
    title: Title,
    status: Type.Optional(Type.Enum([...DEAL_STATUSES], { default: 'new' })),
    contact_id: Type.Optional(Nullable(Id('A contact of the same org.'))),
    owner_user_id: Type.Optional(Nullable(Id())),
    ...ValueFields,
    payment_customer_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    ...FollowUpFields,
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type CreateDealInput = Static<typeof CreateDealBody>;

export const PatchDealBody = Type.Object(
  {
    status: Type.Optional(Type.Enum([...DEAL_STATUSES])),
    owner_user_id: Type.Optional(Nullable(Id())),
    contact_id: Type.Optional(Nullable(Id('A contact of the deal org, or null to clear it.'))),
    title: Type.Optional(Title),
    ...ValueFields,
    ...FollowUpFields,
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type PatchDealInput = Static<typeof PatchDealBody>;

export const CreateActivityBody = Type.Object(
  {
    source_app: Type.String({ minLength: 1, maxLength: 100, description: 'Integrator id.' }),
    message: Type.String({ minLength: 1, maxLength: 10_000, description: 'Timeline text.' }),
    activity_kind: Type.Optional(Type.Enum([...ACTIVITY_KINDS], { default: 'note' })),
    outcome: Type.Optional(Type.Enum([...OUTCOMES])),
    external_reference: Type.Optional(Type.String({ maxLength: 255, description: 'Caller reference.' })),
    metadata_json: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Opaque JSON object, returned as `metadata`: at most 64 KiB serialized and 16 levels deep.' }),
    ),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type CreateActivityInput = Static<typeof CreateActivityBody>;
