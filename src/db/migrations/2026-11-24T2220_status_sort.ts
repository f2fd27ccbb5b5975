// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * The status sort reads `status` in the database's own collation: statuses are a closed set of
 * lower-case ASCII words, which every collation orders like code points. One index
 * (account_id, status, id) then serves both the status sort and a status filter with the status
 * sort (PostgreSQL cannot use a `collate "C"` index for an equality in the default collation,
 * so those requests sorted every matching row). It replaces the `collate "C"` ones.
 */
const REPLACED: [table: string, old: string, name: string][] = [
  ['deals', 'deals_account_status_id_idx', 'deals_account_status_plain_id_idx'],
  ['tickets', 'tickets_account_status_id_idx', 'tickets_account_status_plain_id_idx'],
];

export async function up(db: AnyDb): Promise<void> {
  for (const [table, old, name] of REPLACED) {
    await sql.raw(`create index ${name} on ${table} (account_id, status, id)`).execute(db);
    await sql.raw(`drop index ${old}`).execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const [table, old, name] of REPLACED) {
    await sql.raw(`create index ${old} on ${table} (account_id, status${sqlite ? '' : ' collate "C"'}, id)`).execute(db);
    await sql.raw(`drop index ${name}`).execute(db);
  }
}
