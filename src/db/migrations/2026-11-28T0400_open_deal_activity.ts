// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

const OPEN_DEAL = "status in ('new', 'qualified', 'proposal', 'negotiation')";

/**
 * `deals_open_activity`: each open deal's account, owner and `last_activity_at`, which the sales
 * report counts for "deals without activity in 14 days" (open deals whose last activity is older).
 *
 * On PostgreSQL an UPDATE that changes no indexed column can be a HOT update: the new row version
 * goes on the same page and no index gets an entry. A timeline entry moves its deal's
 * `last_activity_at` forward (migration 2026-11-27T1910), and that column was indexed on `deals`
 * (`analytics_deals_open_activity_idx`, for that figure), so every entry wrote a new entry into
 * each of the deal's twenty-three indexes (the title's trigrams included) and their WAL. Here the
 * figure's index moves to a narrow table of open deals, kept by a trigger on `deals`, and leaves
 * `deals`: the deal's update becomes HOT and the narrow row's costs two index entries. Server CPU
 * per timeline entry 577–607 → 417–490 µs, WAL 6.9–8.3 → 3.0–4.8 kB (100k deals, one writer,
 * docs/performance.md). `deals` also gets a fill factor of 90 % so that pages written from now on
 * keep room for those updates.
 *
 * On SQLite an UPDATE rewrites only the indexes holding a changed column, so the partial index on
 * `deals` costs a timeline entry one index entry already: `deals_open_activity` is a view of the
 * open deals there, which SQLite answers from that same index (its condition is the index's).
 */
export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql
      .raw(`create view deals_open_activity as select id as deal_id, account_id, owner_user_id, last_activity_at from deals where ${OPEN_DEAL}`)
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create table deals_open_activity (
        deal_id bigint primary key references deals (id) on delete cascade,
        account_id bigint not null,
        owner_user_id bigint,
        last_activity_at bigint not null
      )`,
    )
    .execute(db);
  // An open deal has its row, with the deal's owner and last activity; a closed one has none. A deal's
  // insert, and an update of its status, owner or last activity, keep it so (a deal's delete takes it
  // with the foreign key).
  await sql
    .raw(
      `create function deals_open_activity_keep() returns trigger language plpgsql as $fn$ begin
  if new.${OPEN_DEAL} then
    insert into deals_open_activity (deal_id, account_id, owner_user_id, last_activity_at)
    values (new.id, new.account_id, new.owner_user_id, new.last_activity_at)
    on conflict (deal_id) do update set owner_user_id = excluded.owner_user_id, last_activity_at = excluded.last_activity_at
      where (deals_open_activity.owner_user_id, deals_open_activity.last_activity_at) is distinct from (excluded.owner_user_id, excluded.last_activity_at);
  elsif tg_op = 'UPDATE' then
    delete from deals_open_activity where deal_id = new.id;
  end if;
  return null;
end $fn$`,
    )
    .execute(db);
  await sql
    .raw(
      'create trigger deals_open_activity_keep after insert or update of status, owner_user_id, last_activity_at on deals for each row execute function deals_open_activity_keep()',
    )
    .execute(db);
  // The trigger's lock on `deals` keeps writers out until the migration commits, so the copy misses none.
  await sql
    .raw(
      `insert into deals_open_activity (deal_id, account_id, owner_user_id, last_activity_at)
       select id, account_id, owner_user_id, last_activity_at from deals where ${OPEN_DEAL}`,
    )
    .execute(db);
  await sql.raw('create index deals_open_activity_idx on deals_open_activity (account_id, last_activity_at, owner_user_id)').execute(db);
  await sql.raw('drop index analytics_deals_open_activity_idx').execute(db);
  await sql.raw('alter table deals set (fillfactor = 90)').execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql.raw('drop view deals_open_activity').execute(db);
    return;
  }
  await sql.raw('alter table deals reset (fillfactor)').execute(db);
  await sql.raw(`create index analytics_deals_open_activity_idx on deals (account_id, last_activity_at, owner_user_id) where ${OPEN_DEAL}`).execute(db);
  await sql.raw('drop trigger deals_open_activity_keep on deals').execute(db);
  await sql.raw('drop function deals_open_activity_keep()').execute(db);
  await sql.raw('drop table deals_open_activity').execute(db);
}
