import type { Generated } from 'kysely';

/**
 * Row types of every table. Timestamps are epoch milliseconds (UTC) in a bigint column on
 * both engines, so date arithmetic and bucketing is the same integer SQL on SQLite and
 * PostgreSQL. Booleans read back as 0/1 on SQLite and true/false on PostgreSQL: map with Boolean().
 * JSON documents are stored as text.
 */
export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  orgs: OrgsTable;
  org_external_ids: OrgExternalIdsTable;
  contacts: ContactsTable;
  marketing_audiences: MarketingAudiencesTable;
  contact_audiences: ContactAudiencesTable;
  deals: DealsTable;
  deal_status_history: DealStatusHistoryTable;
  deal_activities: DealActivitiesTable;
  tickets: TicketsTable;
  support_logs: SupportLogsTable;
  webhook_endpoints: WebhookEndpointsTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_lost_reasons: AnalyticsLostReasonsTable;
  deals_open_activity: DealsOpenActivityTable;
  list_counts: ListCountsTable;
  open_pipeline: OpenPipelineTable;
  auth_changes: AuthChangesTable;
  console_sessions: ConsoleSessionsTable;
  sign_in_failures: SignInFailuresTable;
  settings: SettingsTable;
}

type Bool = boolean | number;

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  email_lc: string;
  display_name: string;
  role: 'owner' | 'admin' | 'member';
  is_active: Bool;
  support_enabled: Bool;
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

/** One row (id 1): incremented by every revocation, so key caches in every process know to drop. */
export interface AuthChangesTable {
  id: number;
  version: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The first characters of the secret, shown in listings to tell keys apart. */
  prefix: string;
  /** SHA-256 (hex) of the whole secret; the secret itself is never stored. */
  secret_hash: string;
  /** JSON array of scope strings; null means full access (legacy keys). */
  scopes: string | null;
  rate_limit_per_minute: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface OrgsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  name_lc: string;
  domain: string | null;
  created_at: number;
  updated_at: number;
}

export interface OrgExternalIdsTable {
  id: Generated<number>;
  account_id: number;
  org_id: number;
  source_app: string;
  external_org_id: string;
  created_at: number;
}

export interface ContactsTable {
  id: Generated<number>;
  account_id: number;
  org_id: number;
  name: string | null;
  /** Lower-cased in JavaScript (full Unicode) so `q` matches the same on both engines. */
  name_lc: string | null;
  email: string | null;
  email_lc: string | null;
  phone: string | null;
  title: string | null;
  created_at: number;
  updated_at: number;
}

export interface MarketingAudiencesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
}

export interface ContactAudiencesTable {
  account_id: number;
  contact_id: number;
  audience_id: number;
  created_at: number;
}

export type DealStatus = 'new' | 'qualified' | 'proposal' | 'negotiation' | 'won' | 'lost';

/** The columns deals and tickets share: a titled record of an org, with a contact and an owner (lib/titled-records.ts). */
interface TitledRecordColumns {
  id: Generated<number>;
  account_id: number;
  org_id: number;
  contact_id: number | null;
  owner_user_id: number | null;
  title: string;
  /** Lower-cased in JavaScript: case-insensitive search and sort on both engines. */
  title_lc: string;
}

export interface DealsTable extends TitledRecordColumns {
  status: DealStatus;
  /** Minor units (cents): exact sums; rendered as a decimal string. */
  value_cents: number | null;
  currency: string | null;
  payment_customer_id: string | null;
  next_followup_at: number | null;
  lost_reason_code: string | null;
  lost_reason_label: string | null;
  closed_at: number | null;
  closed_by_user_id: number | null;
  /** Last activity or creation time: deals_without_activity_14d reads it without a join. */
  last_activity_at: number;
  created_at: number;
  updated_at: number;
}

export interface DealStatusHistoryTable {
  id: Generated<number>;
  account_id: number;
  deal_id: number;
  from_status: DealStatus | null;
  to_status: DealStatus;
  changed_by_user_id: number | null;
  changed_at: number;
}

export interface DealActivitiesTable {
  id: Generated<number>;
  account_id: number;
  deal_id: number;
  /** The deal's org, copied so the unified feed filters by org without a join. */
  org_id: number;
  event_type: 'note' | 'email' | 'call' | 'meeting';
  message: string;
  outcome: 'success' | 'failed' | 'skipped' | null;
  source_app: string | null;
  external_reference: string | null;
  metadata: string | null;
  user_id: number | null;
  created_at: number;
}

export type TicketStatus = 'open' | 'pending' | 'closed';

export interface TicketsTable extends TitledRecordColumns {
  details: string;
  status: TicketStatus;
  channel: string;
  external_reference: string | null;
  metadata: string | null;
  source_app: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface SupportLogsTable {
  id: Generated<number>;
  account_id: number;
  ticket_id: number;
  org_id: number;
  note: string;
  channel: string;
  author_user_id: number | null;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  url: string;
  /** JSON array of event type strings. */
  event_types: string;
  enabled: Bool;
  disabled_reason: string | null;
  /** AES-256-GCM ciphertext of the signing secret (base64 of iv|tag|data). */
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: number | null;
  /** Set at the first failure after a success; cleared on success. Drives the 5-day auto-disable. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  account_id: number;
  /** `evt_…`, the id receivers see in the payload and X-Service-Event-Id. */
  public_id: string;
  event_type: string;
  org_id: number;
  /** The exact JSON payload, serialized once at emission. */
  payload: string;
  created_at: number;
  /** When the dispatcher fanned the event out to deliveries; null while waiting. */
  dispatched_at: number | null;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  endpoint_id: number;
  event_id: number;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  response_status: number | null;
  error: string | null;
  duration_ms: number | null;
  /** A claim lease: a worker owns the delivery until this time. */
  locked_until: number | null;
  /** 'manual' when the next attempt was asked for (retry, recover); null for the schedule. */
  next_trigger: 'manual' | null;
  /** Made by a test send: only its endpoint receives it, and its attempts show the trigger `test`. */
  is_test: Generated<Bool>;
  created_at: number;
  last_attempt_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  account_id: number;
  delivery_id: number;
  attempt_number: number;
  trigger: 'scheduled' | 'manual';
  status_code: number;
  error: string | null;
  response_body: string | null;
  duration_ms: number;
  requested_at: number;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  account_id: number;
  key: string;
  /** SHA-256 of method, route and canonical body: the same key with another request is refused. */
  request_hash: string;
  /**
   * SHA-256 of method, URL (with its query string) and the body's exact bytes (null for records
   * stored before migration 2026-11-28T1000, and for bodiless requests): a retry with the same bytes
   * is replayed before its body is decoded.
   */
  request_bytes_hash: string | null;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
  location: string | null;
  /** Set by the request's own write transaction: the write is in, whatever became of the response. */
  committed_at: number | null;
  created_at: number;
  expires_at: number;
}

/**
 * Daily analytics rollup, kept exact by triggers (migration 2026-11-21T0160_analytics): per
 * account, fact (e.g. `deal_created`), UTC day (days since 1970-01-01) and dimension (user id,
 * activity kind code, 0 for none), the number of records.
 */
export interface AnalyticsDailyTable {
  account_id: number;
  fact: string;
  day: number;
  dim: number;
  n: number;
}

/** Lost deals per month of closing and lost reason (migration 2026-11-25T0310_analytics_kept): `missing` 1 = no code, 2 = no label (stored as ''). */
export interface AnalyticsLostReasonsTable {
  account_id: number;
  day: number;
  missing: number;
  code: string;
  label: string;
  n: number;
}

/**
 * Each open deal's account, owner and last activity (migration 2026-11-28T0400_open_deal_activity):
 * read-only. A table kept by a trigger on PostgreSQL (so that moving a deal's last activity is a HOT
 * update of `deals`), a view of `deals` on SQLite.
 */
export interface DealsOpenActivityTable {
  deal_id: number;
  account_id: number;
  owner_user_id: number | null;
  last_activity_at: number;
}

/** Kept list totals per account, list and bucket ('' or 'status:<s>'), in shard rows that readers sum (see the list_counts migration). */
export interface ListCountsTable {
  account_id: number;
  list: 'deals' | 'tickets' | 'contacts' | 'orgs';
  bucket: string;
  shard: number;
  n: number;
}

/**
 * The open deals per account, open status and currency ('' for none): how many (`n`), how many
 * with a value (`valued`) and those values' sum in cents, in shard rows that readers sum (migration
 * 2026-11-28T1900_open_pipeline).
 */
export interface OpenPipelineTable {
  account_id: number;
  status: string;
  currency: string;
  shard: number;
  n: number;
  valued: number;
  cents: number;
}

/** A console sign-in. The token lives only in the user's cookie; the table keeps its SHA-256. */
export interface ConsoleSessionsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  token_hash: string;
  /** Sent back by the console as X-CSRF-Token on every write. */
  csrf_token: string;
  created_at: number;
  /** Refreshed at most once a minute; 12 hours without a request end the session. */
  last_seen_at: number;
  /** created_at + 7 days: the absolute end. */
  expires_at: number;
}

/** One failed sign-in for an email (lower-cased), for the 5-in-15-minutes throttle. */
export interface SignInFailuresTable {
  id: Generated<number>;
  email_lc: string;
  failed_at: number;
}

/** Facts about this installation by name (`secret_key_fingerprint`). */
export interface SettingsTable {
  name: string;
  value: string;
  updated_at: number;
}
