// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

const TOUCH = `update deals set last_activity_at = new.created_at
    where id = new.deal_id and account_id = new.account_id and last_activity_at < new.created_at;`;

/**
 * A deal's `last_activity_at` follows its newest timeline entry, kept by the database: an insert
 * into deal_activities moves it forward (never back). It was an UPDATE of the deal in the
 * request's transaction, whose row lock every writer of that deal then waited on until the
 * writer holding it had made its remaining round trips and committed. On PostgreSQL the trigger
 * runs at the commit (a deferred constraint trigger), so the lock is held for the commit alone; on
 * SQLite, with one writer at a time, it is a plain trigger. Its name sorts before the counter
 * triggers' (`analytics_…`), and triggers of one event fire in name order: the deal's update, which
 * in a big account may read index pages from disk, is done before the account's counter rows are
 * locked, not while they are held.
 */
export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql.raw(`create trigger activities_touch_deal_ai after insert on deal_activities begin\n  ${TOUCH}\nend`).execute(db);
    return;
  }
  await sql.raw(`create function activities_touch_deal_ai() returns trigger language plpgsql as $fn$ begin\n  ${TOUCH}\n  return null; end $fn$`).execute(db);
  await sql
    .raw(
      'create constraint trigger activities_touch_deal_ai after insert on deal_activities deferrable initially deferred for each row execute function activities_touch_deal_ai()',
    )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql.raw('drop trigger activities_touch_deal_ai').execute(db);
    return;
  }
  await sql.raw('drop trigger activities_touch_deal_ai on deal_activities').execute(db);
  await sql.raw('drop function activities_touch_deal_ai()').execute(db);
}
