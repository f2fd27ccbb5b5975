import type {
  ContactsTable,
  DealActivitiesTable,
  DealStatusHistoryTable,
  DealsTable,
  OrgsTable,
  SupportLogsTable,
  TicketsTable,
  WebhookEndpointsTable,
} from './schema.ts';
import { everyColumn } from './prepared.ts';

/**
 * Every column of the tables the API reads whole rows of, listed: queries select these instead of
 * `*` (and return them instead of `returning *`), so that on PostgreSQL a statement keeps one result
 * shape and may be named and planned once (docs/design.md#named-statements-on-postgresql; a column
 * added by a migration would otherwise make a named `select *` fail until the process restarts).
 * `everyColumn` fails the type check when a table gains a column that its list leaves out.
 */

/** The columns deals and tickets share (schema.ts, TitledRecordColumns), first in each one's list. */
export const TITLED_COLUMNS = ['id', 'account_id', 'org_id', 'contact_id', 'owner_user_id', 'title', 'title_lc'] as const;

export const DEAL_COLUMNS = everyColumn<DealsTable>()([
  ...TITLED_COLUMNS,
  'status',
  'value_cents',
  'currency',
  'payment_customer_id',
  'next_followup_at',
  'lost_reason_code',
  'lost_reason_label',
  'closed_at',
  'closed_by_user_id',
  'last_activity_at',
  'created_at',
  'updated_at',
]);

export const TICKET_COLUMNS = everyColumn<TicketsTable>()([
  ...TITLED_COLUMNS,
  'details',
  'status',
  'channel',
  'external_reference',
  'metadata',
  'source_app',
  'created_at',
  'updated_at',
  'closed_at',
]);

export const ORG_COLUMNS = everyColumn<OrgsTable>()(['id', 'account_id', 'name', 'name_lc', 'domain', 'created_at', 'updated_at']);

export const CONTACT_COLUMNS = everyColumn<ContactsTable>()([
  'id',
  'account_id',
  'org_id',
  'name',
  'name_lc',
  'email',
  'email_lc',
  'phone',
  'title',
  'created_at',
  'updated_at',
]);

export const ACTIVITY_COLUMNS = everyColumn<DealActivitiesTable>()([
  'id',
  'account_id',
  'deal_id',
  'org_id',
  'event_type',
  'message',
  'outcome',
  'source_app',
  'external_reference',
  'metadata',
  'user_id',
  'created_at',
]);

export const LOG_COLUMNS = everyColumn<SupportLogsTable>()(['id', 'account_id', 'ticket_id', 'org_id', 'note', 'channel', 'author_user_id', 'created_at']);

export const STATUS_CHANGE_COLUMNS = everyColumn<DealStatusHistoryTable>()([
  'id',
  'account_id',
  'deal_id',
  'from_status',
  'to_status',
  'changed_by_user_id',
  'changed_at',
]);

export const ENDPOINT_COLUMNS = everyColumn<WebhookEndpointsTable>()([
  'id',
  'account_id',
  'name',
  'url',
  'event_types',
  'enabled',
  'disabled_reason',
  'secret_encrypted',
  'previous_secret_encrypted',
  'previous_secret_expires_at',
  'failing_since',
  'created_at',
  'updated_at',
]);
