// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * Covering indexes for the analytics aggregates: every count of an analytics endpoint is a
 * range scan over one of these, answered from the index alone (an index-only scan on
 * PostgreSQL, a covering index on SQLite). The partial indexes hold only open deals and open
 * tickets, so the "now" metrics read a small fraction of the table. The predicates are written
 * exactly as the queries write them, so both planners match them.
 */
const INDEXES: [name: string, table: string, columns: string, where?: string][] = [
  ['analytics_deals_created_idx', 'deals', 'account_id, created_at, owner_user_id, org_id'],
  ['analytics_deals_closed_idx', 'deals', 'account_id, closed_at, status, owner_user_id, closed_by_user_id, org_id', 'closed_at is not null'],
  ['analytics_deals_open_idx', 'deals', 'account_id, status, currency, value_cents, owner_user_id', "status in ('new', 'qualified', 'proposal', 'negotiation')"],
  ['analytics_deals_open_org_idx', 'deals', 'account_id, org_id', "status in ('new', 'qualified', 'proposal', 'negotiation')"],
  ['analytics_deals_open_followup_idx', 'deals', 'account_id, next_followup_at, owner_user_id', "status in ('new', 'qualified', 'proposal', 'negotiation')"],
  ['analytics_deals_open_activity_idx', 'deals', 'account_id, last_activity_at, owner_user_id', "status in ('new', 'qualified', 'proposal', 'negotiation')"],
  ['analytics_history_deal_idx', 'deal_status_history', 'account_id, deal_id, to_status'],
  ['analytics_activities_idx', 'deal_activities', 'account_id, created_at, event_type, user_id, org_id'],
  ['analytics_tickets_created_idx', 'tickets', 'account_id, created_at, owner_user_id, org_id'],
  ['analytics_tickets_closed_idx', 'tickets', 'account_id, closed_at, status, owner_user_id, org_id', 'closed_at is not null'],
  ['analytics_tickets_open_idx', 'tickets', 'account_id, org_id, owner_user_id, created_at', "status in ('open', 'pending')"],
  ['analytics_support_logs_idx', 'support_logs', 'account_id, created_at, author_user_id, org_id'],
];

export async function up(db: AnyDb): Promise<void> {
  for (const [name, table, columns, where] of INDEXES) {
    await sql.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`).execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index ${name}`).execute(db);
}
