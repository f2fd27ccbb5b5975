/**
 * The columns the seed writes, in insert order, with their PostgreSQL types: bulk inserts on
 * PostgreSQL send one typed array per column (`unnest($1::bigint[], …)`), so a batch is one
 * statement of a fixed shape however many rows it holds.
 */
export type ColumnType = 'bigint' | 'text' | 'boolean';

export interface TableShape {
  table: SeedTable;
  columns: readonly (readonly [name: string, type: ColumnType])[];
}

export type SeedTable = 'users' | 'orgs' | 'contacts' | 'deals' | 'deal_status_history' | 'deal_activities' | 'tickets' | 'support_logs';

const B = 'bigint';
const T = 'text';

/** The columns deals and tickets begin with after their id (schema.ts `TitledRecordColumns`, less `id`): a titled record of an org, with a contact and an owner. */
const TITLED = [
  ['account_id', B],
  ['org_id', B],
  ['contact_id', B],
  ['owner_user_id', B],
  ['title', T],
  ['title_lc', T],
] as const;

export const SHAPES: Record<SeedTable, TableShape> = {
  users: {
    table: 'users',
    columns: [
      ['account_id', B],
      ['email', T],
      ['email_lc', T],
      ['display_name', T],
      ['role', T],
      ['is_active', 'boolean'],
      ['support_enabled', 'boolean'],
      ['created_at', B],
      ['updated_at', B],
    ],
  },
  orgs: {
    table: 'orgs',
    columns: [
      ['account_id', B],
      ['name', T],
      ['name_lc', T],
      ['domain', T],
      ['created_at', B],
      ['updated_at', B],
    ],
  },
  contacts: {
    table: 'contacts',
    columns: [
      ['account_id', B],
      ['org_id', B],
      ['name', T],
      ['name_lc', T],
      ['email', T],
      ['email_lc', T],
      ['phone', T],
      ['title', T],
      ['created_at', B],
      ['updated_at', B],
    ],
  },
  deals: {
    table: 'deals',
    columns: [
      ...TITLED,
      ['status', T],
      ['value_cents', B],
      ['currency', T],
      ['payment_customer_id', T],
      ['next_followup_at', B],
      ['lost_reason_code', T],
      ['lost_reason_label', T],
      ['closed_at', B],
      ['closed_by_user_id', B],
      ['last_activity_at', B],
      ['created_at', B],
      ['updated_at', B],
    ],
  },
  deal_status_history: {
    table: 'deal_status_history',
    columns: [
      ['account_id', B],
      ['deal_id', B],
      ['from_status', T],
      ['to_status', T],
      ['changed_by_user_id', B],
      ['changed_at', B],
    ],
  },
  deal_activities: {
    table: 'deal_activities',
    columns: [
      ['account_id', B],
      ['deal_id', B],
      ['org_id', B],
      ['event_type', T],
      ['message', T],
      ['outcome', T],
      ['source_app', T],
      ['external_reference', T],
      ['metadata', T],
      ['user_id', B],
      ['created_at', B],
    ],
  },
  tickets: {
    table: 'tickets',
    columns: [
      ...TITLED,
      ['details', T],
      ['status', T],
      ['channel', T],
      ['external_reference', T],
      ['metadata', T],
      ['source_app', T],
      ['created_at', B],
      ['updated_at', B],
      ['closed_at', B],
    ],
  },
  support_logs: {
    table: 'support_logs',
    columns: [
      ['account_id', B],
      ['ticket_id', B],
      ['org_id', B],
      ['note', T],
      ['channel', T],
      ['author_user_id', B],
      ['created_at', B],
    ],
  },
};

/** One row as values in the shape's column order. */
export type Row = (string | number | boolean | null)[];
