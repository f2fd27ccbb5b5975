import { Type, type Static } from 'typebox';
import { Id, ListOf, Metadata, Nullable, NullableTimestamp, PageQuery, SortQuery, Timestamp, TitleAndCreatedQuery } from '../../http/schemas.ts';

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export const TICKET_SORTS = ['created_at', 'updated_at', 'id', 'title', 'status'];
export const LOG_SORTS = ['created_at', 'id'];

const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, description });
const IdempotencyKey = Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alternative to the Idempotency-Key header.' }));
const Channel = Text(50, 'Where the message came from (free text, e.g. `api`, `email`, `phone`); default `api`.');
// Notes travel in support.log.created payloads, which stay under 256 KiB: 40,000 characters is
// at most 240,000 bytes even when every one is a control character JSON escapes as \uXXXX.
const LONG_TEXT = 40_000;

const ticketProperties = {
  id: Id(),
  org_id: Id('The customer org the ticket belongs to.'),
  contact_id: Nullable(Id('The contact who raised it.')),
  owner_user_id: Nullable(Id('The team user handling it.')),
  title: Type.String(),
  details: Type.String(),
  status: Type.Enum([...TICKET_STATUSES]),
  channel: Type.String(),
  external_reference: Nullable(Type.String({ description: "The caller's case id." })),
  metadata: Nullable(Metadata),
  created_at: Timestamp(),
  updated_at: Timestamp('Last change of the ticket or the time of its newest log.'),
  closed_at: NullableTimestamp('Set when the ticket is closed; cleared when it is reopened.'),
};

export const Ticket = Type.Object(ticketProperties, { $id: 'Ticket', title: 'Ticket', description: 'A support ticket (a "slog" in event payloads).' });
export type TicketView = Static<typeof Ticket>;

export const SupportLog = Type.Object(
  {
    id: Id(),
    ticket_id: Id(),
    note: Type.String(),
    channel: Type.String(),
    author_user_id: Nullable(Id('The team user who wrote it; null when written through an API key.')),
    created_at: Timestamp(),
  },
  { $id: 'SupportLog', title: 'SupportLog', description: 'An update (log entry) on a support ticket.' },
);
export type SupportLogView = Static<typeof SupportLog>;

export const TicketCreated = Type.Object(
  { ...ticketProperties, first_log: Type.Ref('SupportLog') },
  { title: 'TicketCreated', description: 'The created ticket, plus its first log under `first_log`.' },
);

export const TicketList = ListOf(Type.Ref('Ticket'), 'TicketList');
export const SupportLogList = ListOf(Type.Ref('SupportLog'), 'SupportLogList');

export const TicketListQuery = Type.Object({
  status: Type.Optional(Type.Enum([...TICKET_STATUSES], { description: 'Only tickets in this status.' })),
  open_only: Type.Optional(
    Type.Enum(['1', '0', 'true', 'false'], { description: '`1` (or `true`): only tickets not closed (status `open` or `pending`). Combines with `status`.' }),
  ),
  org_id: Type.Optional(Id('Only tickets of this org (404 `org_not_found` if not in the account).')),
  owner_user_id: Type.Optional(Id('Only tickets owned by this team user (404 `user_not_found` if not in the account).')),
  contact_id: Type.Optional(Id('Only tickets of this contact (404 `contact_not_found` if not in the account).')),
  ...TitleAndCreatedQuery,
  ...SortQuery(TICKET_SORTS),
  ...PageQuery,
});
export type TicketListQueryT = Static<typeof TicketListQuery>;

export const LogListQuery = Type.Object({ ...SortQuery(LOG_SORTS), ...PageQuery });

export const TicketParams = Type.Object({ id: Id('Ticket id.') });
export const LogParams = Type.Object({ id: Id('Ticket id.'), log_id: Id('Support log id.') });

export const CreateTicketBody = Type.Object(
  {
    source_app: Text(100, 'Stable id of the integrating app.'),
    external_org_id: Type.Optional(Text(200, "The integrator's tenant id; resolved to an org as POST /orgs/resolve does. Required unless org_id is sent.")),
    org_id: Type.Optional(Id('Extension: an org of the account, addressed directly (the console uses it); instead of external_org_id and its hints.')),
    title: Text(500),
    details: Text(LONG_TEXT),
    contact_email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: 'Required unless contact_id is sent. Found in the org or created there; also an org lookup hint.',
      }),
    ),
    contact_id: Type.Optional(Id('A contact of the resolved org; takes precedence over contact_email.')),
    contact_name: Type.Optional(Text(200, 'Narrows an ambiguous org lookup; names a contact created from contact_email.')),
    org_name: Type.Optional(Text(200, 'Org lookup hint when the pair is not mapped yet.')),
    note: Type.Optional(Text(LONG_TEXT, 'Body of the first log; defaults to details.')),
    channel: Type.Optional(Channel),
    external_reference: Type.Optional(Text(200, "The caller's case id.")),
    metadata_json: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Opaque JSON object, returned as `metadata`: at most 64 KiB serialized and 16 levels deep.' }),
    ),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
export type CreateTicketInput = Static<typeof CreateTicketBody>;

export const UpdateTicketBody = Type.Object(
  {
    status: Type.Optional(Type.Enum([...TICKET_STATUSES])),
    // A type list (not anyOf) so a bad value is reported with its specific reason.
    owner_user_id: Type.Optional(
      Type.Unsafe<number | null>({
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 9007199254740991,
        description:
          'A team user of the account who is active and support-enabled (`support_enabled`), or null to unassign. A user of another ' +
          'account is 404 `user_not_found`; a new owner who is deactivated is 422 with `fields.owner_user_id` `user_inactive`, one ' +
          'not support-enabled 422 with `not_support_enabled`.',
      }),
    ),
    title: Type.Optional(Text(500)),
    idempotency_key: IdempotencyKey,
  },
  { additionalProperties: false },
);
export type UpdateTicketInput = Static<typeof UpdateTicketBody>;

export const CreateLogBody = Type.Object(
  { note: Text(LONG_TEXT), channel: Type.Optional(Channel), idempotency_key: IdempotencyKey },
  { additionalProperties: false },
);
export type CreateLogInput = Static<typeof CreateLogBody>;
