// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

function table(db: AnyDb, name: string): CreateTableBuilder<string, 'id'> {
  const t = db.schema.createTable(name);
  return isSqlite(db) ? t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : t.addColumn('id', 'bigserial', (c) => c.primaryKey());
}

function ref(target: string) {
  return (c: any) => c.references(`${target}.id`).onDelete('cascade');
}

type Indexes = [name: string, columns: string[]][];

async function createIndexes(db: AnyDb, tableName: string, indexes: Indexes): Promise<void> {
  for (const [name, columns] of indexes) await db.schema.createIndex(name).on(tableName).columns(columns).execute();
}

/** The columns deals and tickets open with: account, org, optional contact and owner, title. */
function titledRecord(db: AnyDb, name: string) {
  return table(db, name)
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('org_id', 'bigint', (c) => ref('orgs')(c).notNull())
    .addColumn('contact_id', 'bigint', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('owner_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_lc', 'text', (c) => c.notNull());
}

/** The list orders deals and tickets share: newest, last updated, title, status, org, owner. */
function titledRecordIndexes(name: string): Indexes {
  return [
    [`${name}_account_created_idx`, ['account_id', 'created_at', 'id']],
    [`${name}_account_updated_idx`, ['account_id', 'updated_at', 'id']],
    [`${name}_account_title_idx`, ['account_id', 'title', 'id']],
    [`${name}_account_status_created_idx`, ['account_id', 'status', 'created_at', 'id']],
    [`${name}_account_org_created_idx`, ['account_id', 'org_id', 'created_at', 'id']],
    [`${name}_account_owner_created_idx`, ['account_id', 'owner_user_id', 'created_at', 'id']],
  ];
}

/**
 * The indexes of a timeline (a deal's activities, a ticket's support logs): by parent record, by
 * account, by org and by author, each newest first.
 */
function timelineIndexes(name: string, parent: string, author: { index: string; column: string }): Indexes {
  return [
    [`${name}_${parent}_created_idx`, ['account_id', `${parent}_id`, 'created_at', 'id']],
    [`${name}_account_created_idx`, ['account_id', 'created_at', 'id']],
    [`${name}_account_org_idx`, ['account_id', 'org_id', 'created_at']],
    [`${name}_account_${author.index}_idx`, ['account_id', author.column, 'created_at']],
  ];
}

export async function up(db: AnyDb): Promise<void> {
  await table(db, 'accounts')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await table(db, 'users')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lc', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('support_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('users_account_email_uq', ['account_id', 'email_lc'])
    .execute();
  await db.schema.createIndex('users_account_created_idx').on('users').columns(['account_id', 'created_at', 'id']).execute();

  await table(db, 'api_keys')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text')
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id']).execute();

  await table(db, 'orgs')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lc', 'text', (c) => c.notNull())
    .addColumn('domain', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orgs_account_created_idx').on('orgs').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('orgs_account_name_idx').on('orgs').columns(['account_id', 'name_lc']).execute();

  await table(db, 'org_external_ids')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('org_id', 'bigint', (c) => ref('orgs')(c).notNull())
    .addColumn('source_app', 'text', (c) => c.notNull())
    .addColumn('external_org_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('org_external_ids_pair_uq', ['account_id', 'source_app', 'external_org_id'])
    .execute();
  await db.schema.createIndex('org_external_ids_org_idx').on('org_external_ids').columns(['org_id']).execute();

  await table(db, 'contacts')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('org_id', 'bigint', (c) => ref('orgs')(c).notNull())
    .addColumn('name', 'text')
    .addColumn('name_lc', 'text')
    .addColumn('email', 'text')
    .addColumn('email_lc', 'text')
    .addColumn('phone', 'text')
    .addColumn('title', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contacts_account_created_idx').on('contacts').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('contacts_account_org_idx').on('contacts').columns(['account_id', 'org_id', 'created_at']).execute();
  await db.schema.createIndex('contacts_account_email_idx').on('contacts').columns(['account_id', 'email_lc']).execute();

  await table(db, 'marketing_audiences')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('marketing_audiences_name_uq', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('contact_audiences')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('contact_id', 'bigint', (c) => ref('contacts')(c).notNull())
    .addColumn('audience_id', 'bigint', (c) => ref('marketing_audiences')(c).notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_audiences_pk', ['contact_id', 'audience_id'])
    .execute();
  await db.schema.createIndex('contact_audiences_audience_idx').on('contact_audiences').columns(['audience_id']).execute();

  const dealStatus = sql`status in ('new', 'qualified', 'proposal', 'negotiation', 'won', 'lost')`;
  await titledRecord(db, 'deals')
    .addColumn('status', 'text', (c) => c.notNull().check(dealStatus))
    .addColumn('value_cents', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('payment_customer_id', 'text')
    .addColumn('next_followup_at', 'bigint')
    .addColumn('lost_reason_code', 'text')
    .addColumn('lost_reason_label', 'text')
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_by_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'deals', [
    ...titledRecordIndexes('deals'),
    ['deals_account_payment_customer_idx', ['account_id', 'payment_customer_id']],
    ['deals_account_contact_idx', ['account_id', 'contact_id']],
    ['deals_account_closed_idx', ['account_id', 'closed_at']],
  ]);

  await table(db, 'deal_status_history')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('deal_id', 'bigint', (c) => ref('deals')(c).notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('changed_by_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deal_status_history_deal_idx').on('deal_status_history').columns(['deal_id', 'changed_at']).execute();
  await db.schema.createIndex('deal_status_history_account_idx').on('deal_status_history').columns(['account_id', 'changed_at']).execute();

  await table(db, 'deal_activities')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('deal_id', 'bigint', (c) => ref('deals')(c).notNull())
    .addColumn('org_id', 'bigint', (c) => ref('orgs')(c).notNull())
    .addColumn('event_type', 'text', (c) => c.notNull().check(sql`event_type in ('note', 'email', 'call', 'meeting')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('success', 'failed', 'skipped')`))
    .addColumn('source_app', 'text')
    .addColumn('external_reference', 'text')
    .addColumn('metadata', 'text')
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'deal_activities', timelineIndexes('deal_activities', 'deal', { index: 'user', column: 'user_id' }));

  await titledRecord(db, 'tickets')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'pending', 'closed')`))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('external_reference', 'text')
    .addColumn('metadata', 'text')
    .addColumn('source_app', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .execute();
  await createIndexes(db, 'tickets', [...titledRecordIndexes('tickets'), ['tickets_account_closed_idx', ['account_id', 'closed_at']]]);

  await table(db, 'support_logs')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('ticket_id', 'bigint', (c) => ref('tickets')(c).notNull())
    .addColumn('org_id', 'bigint', (c) => ref('orgs')(c).notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('author_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'support_logs', timelineIndexes('support_logs', 'ticket', { index: 'author', column: 'author_user_id' }));

  await table(db, 'webhook_endpoints')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('disabled_reason', 'text')
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_account_idx').on('webhook_endpoints').columns(['account_id', 'created_at', 'id']).execute();

  await table(db, 'events')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('org_id', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('dispatched_at', 'bigint')
    .execute();
  await db.schema.createIndex('events_account_created_idx').on('events').columns(['account_id', 'created_at', 'id']).execute();
  // The dispatcher scans only the events not yet fanned out.
  await db.schema.createIndex('events_undispatched_idx').on('events').column('id').where(sql.ref('dispatched_at'), 'is', null).execute();

  await table(db, 'webhook_deliveries')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('endpoint_id', 'bigint', (c) => ref('webhook_endpoints')(c).notNull())
    .addColumn('event_id', 'bigint', (c) => ref('events')(c).notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .addUniqueConstraint('webhook_deliveries_event_endpoint_uq', ['event_id', 'endpoint_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_account_created_idx').on('webhook_deliveries').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'status', 'created_at']).execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();

  await table(db, 'webhook_attempts')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('delivery_id', 'bigint', (c) => ref('webhook_deliveries')(c).notNull())
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('scheduled', 'manual')`))
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'attempt_number']).execute();

  await table(db, 'idempotency_keys')
    .addColumn('account_id', 'bigint', (c) => ref('accounts')(c).notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('location', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_account_key_uq', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  const tables = [
    'idempotency_keys',
    'webhook_attempts',
    'webhook_deliveries',
    'events',
    'webhook_endpoints',
    'support_logs',
    'tickets',
    'deal_activities',
    'deal_status_history',
    'deals',
    'contact_audiences',
    'marketing_audiences',
    'contacts',
    'org_external_ids',
    'orgs',
    'api_keys',
    'users',
    'accounts',
  ];
  for (const name of tables) await db.schema.dropTable(name).execute();
}
