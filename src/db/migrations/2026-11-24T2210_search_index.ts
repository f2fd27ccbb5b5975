// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { createContentSearch, dropContentSearch, SEARCHED } from './shared-2026-11-24-search.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the database as it was, not today's types
type AnyDb = Kysely<any>;

/**
 * Substring search through trigram indexes, and the sort indexes lists were missing.
 *
 * `q` is a case-insensitive substring match over lower-cased columns (`LIKE '%term%'`).
 * PostgreSQL: pg_trgm GIN indexes on those columns answer that LIKE directly. The extension is
 * created once per database, in `public` (or wherever it already is), and its operator class is
 * named with that schema, so the indexes work whatever the connection's search_path.
 * SQLite: one external-content FTS5 table per searched table with the `trigram` tokenizer,
 * kept by triggers; queries take candidate rows from it and keep the exact LIKE matches.
 * (The searched tables and columns: SEARCHED, shared with 2026-11-25T0400_search_by_account.)
 *
 * Sort indexes: every supported sort of deals and tickets, alone and after a status filter,
 * ends in `id` so a page is an index range (text sorts by code point: `collate "C"` on
 * PostgreSQL, SQLite's BINARY already is), and (account_id, id) so sorting by id never walks
 * another account's rows. Open tickets (open_only) by creation have a partial index.
 */
const SORTS: [name: string, table: string, columns: string, where?: string][] = [
  ['deals_account_id_idx', 'deals', 'account_id, id'],
  ['deals_account_status_title_idx', 'deals', 'account_id, status, title_lc{C}, id'],
  ['tickets_account_id_idx', 'tickets', 'account_id, id'],
  ['tickets_account_title_lc_idx', 'tickets', 'account_id, title_lc{C}, id'],
  ['tickets_account_status_id_idx', 'tickets', 'account_id, status{C}, id'],
  ['tickets_account_status_updated_idx', 'tickets', 'account_id, status, updated_at, id'],
  ['tickets_account_status_title_idx', 'tickets', 'account_id, status, title_lc{C}, id'],
  ['tickets_account_open_created_idx', 'tickets', 'account_id, created_at, id', "status in ('open', 'pending')"],
  ['contacts_account_id_idx', 'contacts', 'account_id, id'],
  ['contacts_account_updated_idx', 'contacts', 'account_id, updated_at, id'],
];

/** The schema holding pg_trgm, creating the extension in `public` when the database has none yet. */
async function trigramSchema(db: AnyDb): Promise<string> {
  const find = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found;
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  } catch (err) {
    // Another migration of the same database may have created it a moment ago.
    const again = await find();
    if (again) return again;
    throw err;
  }
  return (await find())!;
}

export async function up(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const [name, table, columns, where] of SORTS) {
    await sql.raw(`create index ${name} on ${table} (${columns.replaceAll('{C}', sqlite ? '' : ' collate "C"')})${where ? ` where ${where}` : ''}`).execute(db);
  }
  if (!sqlite) {
    const schema = await trigramSchema(db);
    for (const { table, columns } of SEARCHED) {
      for (const column of columns) {
        await sql.raw(`create index ${table}_${column}_trgm_idx on ${table} using gin (${column} "${schema}".gin_trgm_ops)`).execute(db);
      }
    }
    return;
  }
  for (const { table, columns } of SEARCHED) await createContentSearch(db, table, columns, ' '.repeat(8));
}

export async function down(db: AnyDb): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const [name] of SORTS) await sql.raw(`drop index ${name}`).execute(db);
  for (const { table, columns } of SEARCHED) {
    if (sqlite) {
      await dropContentSearch(db, table);
    } else {
      for (const column of columns) await sql.raw(`drop index ${table}_${column}_trgm_idx`).execute(db);
    }
  }
}
