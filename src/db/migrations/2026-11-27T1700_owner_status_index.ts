// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * An owner's deals, by status and last update: the console's pipeline board filtered by owner (each
 * status column: its total and its newest-updated page) and the deals list filtered by owner
 * (`GET /deals?owner_user_id=…`, its total and, for the update, status and id orders, its page from
 * the index alone). An owner of a large account holds thousands of deals (about 4,000 of a
 * million): without this index a board column's total read every one of them from the table, and
 * so did the page of the list sorted by update (SQLite, one million deals: 8–11 ms each, against
 * 0.04 ms for a column and 0.6 ms for the list page with it).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql.raw('create index deals_account_owner_status_updated_idx on deals (account_id, owner_user_id, status, updated_at, id)').execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql.raw('drop index deals_account_owner_status_updated_idx').execute(db);
}
