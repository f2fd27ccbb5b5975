// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * Kept list totals: `list_counts` holds, per account, list (`deals`, `tickets`, `contacts`,
 * `orgs`) and bucket (`''` for the whole list, `status:<s>` per status), how many rows the list
 * has, so `pagination.total` of the common filters is a read of a few rows instead of a count
 * over the account. Triggers keep it exact in the same transaction as every insert, delete
 * and status change, whoever writes.
 *
 * Concurrent writers of one account would all update the same row and wait on each other's
 * row lock until commit; on PostgreSQL each transaction therefore adds to one of 16 shard rows
 * (its transaction id modulo 16) and readers sum the shards. Within a transaction the buckets
 * are touched in one order ('' before 'status:…', and the smaller status first), so two
 * writers never lock the same two rows in opposite orders. SQLite has one writer at a time:
 * shard 0 only.
 */
const SHARDS = 16;

interface Counted {
  table: string;
  list: string;
  /** Whether the list is counted per status too. */
  byStatus: boolean;
}

const COUNTED: Counted[] = [
  { table: 'deals', list: 'deals', byStatus: true },
  { table: 'tickets', list: 'tickets', byStatus: true },
  { table: 'contacts', list: 'contacts', byStatus: false },
  { table: 'orgs', list: 'orgs', byStatus: false },
];

const UPSERT = 'on conflict (account_id, list, bucket, shard) do update set n = list_counts.n + excluded.n';

function add(sqlite: boolean, row: 'new' | 'old', list: string, bucket: string, sign: 1 | -1): string {
  const shard = sqlite ? '0' : `(txid_current() % ${SHARDS})::int`;
  return `insert into list_counts (account_id, list, bucket, shard, n) select ${row}.account_id, '${list}', ${bucket}, ${shard}, ${sign} where 1 = 1 ${UPSERT};`;
}

const statusBucket = (row: 'new' | 'old') => `'status:' || ${row}.status`;

function bodies(sqlite: boolean, c: Counted): { ai: string; ad: string; au?: string } {
  const all = (row: 'new' | 'old', sign: 1 | -1) => add(sqlite, row, c.list, `''`, sign);
  const status = (row: 'new' | 'old', sign: 1 | -1) => (c.byStatus ? add(sqlite, row, c.list, statusBucket(row), sign) : '');
  const ai = `${all('new', 1)}\n${status('new', 1)}`;
  const ad = `${all('old', -1)}\n${status('old', -1)}`;
  if (!c.byStatus) return { ai, ad };
  const au = sqlite
    ? `${status('old', -1)}\n${status('new', 1)}`
    : `if old.status < new.status then ${status('old', -1)} ${status('new', 1)} else ${status('new', 1)} ${status('old', -1)} end if;`;
  return { ai, ad, au };
}

export async function up(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql
    .raw(`create table list_counts (
      account_id bigint not null, list text not null, bucket text not null, shard integer not null, n bigint not null,
      primary key (account_id, list, bucket, shard))${sqlite ? ' without rowid' : ''}`)
    .execute(db);
  for (const c of COUNTED) {
    await sql
      .raw(`insert into list_counts (account_id, list, bucket, shard, n)
      select account_id, '${c.list}', '', 0, count(*) from ${c.table} group by account_id`)
      .execute(db);
    if (c.byStatus) {
      await sql
        .raw(`insert into list_counts (account_id, list, bucket, shard, n)
        select account_id, '${c.list}', 'status:' || status, 0, count(*) from ${c.table} group by account_id, status`)
        .execute(db);
    }
    const b = bodies(sqlite, c);
    const events: [op: 'ai' | 'ad' | 'au', event: string][] = [
      ['ai', 'after insert'],
      ['ad', 'after delete'],
      ['au', 'after update of status'],
    ];
    for (const [op, event] of events) {
      const body = b[op];
      if (!body) continue;
      const name = `list_counts_${c.table}_${op}`;
      const when = op === 'au' ? 'when (old.status <> new.status)' : '';
      if (sqlite) {
        await sql.raw(`create trigger ${name} ${event} on ${c.table} for each row ${when} begin\n${body}\nend`).execute(db);
      } else {
        await sql.raw(`create function ${name}() returns trigger language plpgsql as $fn$ begin\n${body}\nreturn null; end $fn$`).execute(db);
        await sql.raw(`create trigger ${name} ${event} on ${c.table} for each row ${when} execute function ${name}()`).execute(db);
      }
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const c of COUNTED) {
    for (const op of ['ai', 'ad', 'au']) {
      await sql.raw(`drop trigger if exists list_counts_${c.table}_${op}${sqlite ? '' : ` on ${c.table}`}`).execute(db);
      if (!sqlite) await sql.raw(`drop function if exists list_counts_${c.table}_${op}()`).execute(db);
    }
  }
  await sql.raw('drop table list_counts').execute(db);
}
