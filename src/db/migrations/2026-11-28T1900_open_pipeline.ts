// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * The sales report's open pipeline, kept: `open_pipeline` holds, per account, open status and
 * currency (`''` for none), how many open deals there are (`n`), how many of them have a value
 * (`valued`) and the sum of those values in cents (`cents`). The report read every open deal of the
 * account for it (211,000 at a million deals: 27–32 ms, the largest part of the report); it now
 * sums a few rows. Triggers keep it exact in the same transaction as every insert, delete and
 * change of a deal's status, currency or value.
 *
 * As `list_counts` (2026-11-24T2200): on PostgreSQL each transaction adds to one of 16 shard rows
 * (its transaction id modulo 16), so writers of one account do not queue on one row, and a change
 * touches its two rows in key order, so two writers never lock them in opposite orders; and as the
 * other counters (2026-11-27T1900_rollups_at_commit) the triggers are constraint triggers deferred
 * to the commit, each statement inside an `if` of its condition (2026-11-28T0310). SQLite has one
 * writer at a time: shard 0 only.
 */
const SHARDS = 16;
const OPEN = "status in ('new', 'qualified', 'proposal', 'negotiation')";
const UPSERT = `on conflict (account_id, status, currency, shard) do update set
  n = open_pipeline.n + excluded.n, valued = open_pipeline.valued + excluded.valued, cents = open_pipeline.cents + excluded.cents`;

/** Adds `row` (`new` or `old`) with `sign` to its status and currency. */
function add(sqlite: boolean, row: 'new' | 'old', sign: 1 | -1): string {
  const shard = sqlite ? '0' : `(txid_current() % ${SHARDS})::int`;
  const valued = `case when ${row}.value_cents is null then 0 else ${sign} end`;
  return `insert into open_pipeline (account_id, status, currency, shard, n, valued, cents)
    select ${row}.account_id, ${row}.status, coalesce(${row}.currency, ''), ${shard}, ${sign}, ${valued}, ${sign} * coalesce(${row}.value_cents, 0) where 1 = 1
    ${UPSERT};`;
}

const isOpen = (row: 'new' | 'old') => `${row}.${OPEN}`;
const changed = 'old.status is distinct from new.status or old.currency is distinct from new.currency or old.value_cents is distinct from new.value_cents';

export async function up(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql
    .raw(`create table open_pipeline (
      account_id bigint not null, status text not null, currency text not null, shard integer not null,
      n bigint not null, valued bigint not null, cents bigint not null,
      primary key (account_id, status, currency, shard))${sqlite ? ' without rowid' : ''}`)
    .execute(db);
  await sql
    .raw(`insert into open_pipeline (account_id, status, currency, shard, n, valued, cents)
      select account_id, status, coalesce(currency, ''), 0, count(*), count(value_cents), coalesce(sum(value_cents), 0)
      from deals where ${OPEN} group by account_id, status, coalesce(currency, '')`)
    .execute(db);
  if (sqlite) {
    await sql.raw(`create trigger open_pipeline_ai after insert on deals when ${isOpen('new')} begin\n${add(true, 'new', 1)}\nend`).execute(db);
    await sql
      .raw(
        `create trigger open_pipeline_au after update of status, currency, value_cents on deals
        when (${isOpen('old')} or ${isOpen('new')}) and (${changed}) begin
        ${add(true, 'old', -1).replace('where 1 = 1', `where ${isOpen('old')}`)}
        ${add(true, 'new', 1).replace('where 1 = 1', `where ${isOpen('new')}`)}
        end`,
      )
      .execute(db);
    await sql.raw(`create trigger open_pipeline_ad after delete on deals when ${isOpen('old')} begin\n${add(true, 'old', -1)}\nend`).execute(db);
    return;
  }
  const fn = async (name: string, body: string) =>
    sql.raw(`create function ${name}() returns trigger language plpgsql as $fn$ begin\n${body}\nreturn null; end $fn$`).execute(db);
  const oldFirst = `(old.status, coalesce(old.currency, '')) < (new.status, coalesce(new.currency, ''))`;
  const out = `if ${isOpen('old')} then ${add(false, 'old', -1)} end if;`;
  const into = `if ${isOpen('new')} then ${add(false, 'new', 1)} end if;`;
  await fn('open_pipeline_ai', into);
  await fn('open_pipeline_au', `if ${changed} then\n  if ${oldFirst} then ${out} ${into} else ${into} ${out} end if;\nend if;`);
  await fn('open_pipeline_ad', out);
  const events = { ai: 'after insert', au: 'after update of status, currency, value_cents', ad: 'after delete' };
  for (const [op, event] of Object.entries(events)) {
    await sql
      .raw(`create constraint trigger open_pipeline_${op} ${event} on deals deferrable initially deferred for each row execute function open_pipeline_${op}()`)
      .execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const op of ['ai', 'au', 'ad']) {
    await sql.raw(`drop trigger open_pipeline_${op}${sqlite ? '' : ' on deals'}`).execute(db);
    if (!sqlite) await sql.raw(`drop function open_pipeline_${op}()`).execute(db);
  }
  await sql.raw('drop table open_pipeline').execute(db);
}
