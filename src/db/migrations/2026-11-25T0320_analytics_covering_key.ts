// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: the key of `analytics_daily` carries `n` (`include (n)`), so the reports' reads of
 * the rollup are index-only scans. Rows of one fact and period are otherwise spread over the
 * heap (every upsert writes a new row version wherever there is room), and a year of per-org or
 * per-user rows cost one heap page each. An update of `n` then writes a key entry (no HOT
 * update); one index either way. SQLite stores the table in its key's order (`without rowid`):
 * nothing to do.
 */
export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create unique index analytics_daily_key_n on analytics_daily (account_id, fact, day, dim) include (n)`.execute(db);
  await sql`alter table analytics_daily drop constraint analytics_daily_pkey`.execute(db);
  await sql`alter table analytics_daily add constraint analytics_daily_pkey primary key using index analytics_daily_key_n`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`alter table analytics_daily drop constraint analytics_daily_pkey`.execute(db);
  await sql`alter table analytics_daily add primary key (account_id, fact, day, dim)`.execute(db);
}
