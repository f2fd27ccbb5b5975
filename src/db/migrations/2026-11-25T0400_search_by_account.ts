// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { createContentSearch, dropContentSearch, SEARCHED } from './shared-2026-11-24-search.ts';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * Substring search whose cost is the account's own. The trigram indexes of the search_index
 * migration spanned all accounts: a term common in one account made candidates that every
 * other account's search read and discarded. They are replaced by indexes where one account's
 * entries are found without reading another's.
 *
 * SQLite: one contentless FTS5 table per searched table (`<table>_trigrams`, the `trigram`
 * tokenizer, case-sensitive over the lower-cased columns, `contentless_delete=1`) whose rowid is
 * `(account_id << 40) + id`. An account's rows
 * are one rowid range, and FTS5 seeks a MATCH to a rowid range in every doclist (`rowid >= ? and
 * rowid < ?` with integer bounds), so a query reads the account's entries only. Row ids stay
 * below 2^40 and account ids below 2^23 (a write beyond is refused). Triggers keep it; a delete needs only the rowid.
 *
 * PostgreSQL: one GIN index per searched table over `account_id` (btree_gin) and the searched
 * columns (pg_trgm): a scan ANDs the account's posting list with the term's trigrams, skipping
 * through the longer lists, instead of reading every account's trigram matches. btree_gin is
 * created once per database, in pg_trgm's schema (or wherever it already is), and the operator
 * classes are named with their schemas, so the indexes work whatever the connection's search_path.
 */
/**
 * What is indexed for a column: the `_lc` columns are lower-cased by the application; `domain` is
 * kept as sent, so its index holds `lower(domain)` (domains are ASCII hostnames, which SQLite's and
 * PostgreSQL's `lower` fold alike) and queries match `lower(domain)`.
 */
const indexed = (column: string, row?: 'new' | 'old') => {
  const ref = row ? `${row}.${column}` : column;
  return column.endsWith('_lc') ? ref : `lower(${ref})`;
};

/** The FTS5 rowid keeps an account's rows in one range: account ids below 2^23, row ids below 2^40. */
const MAX_ACCOUNT = 2 ** 23;
const MAX_ID = 2 ** 40;

/** The schema holding `extension`, creating it in `fallback` when the database has none yet. */
async function extensionSchema(db: AnyDb, extension: string, fallback: string): Promise<string> {
  const find = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${extension}`.execute(db)
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found;
  try {
    await sql.raw(`create extension if not exists ${extension} with schema "${fallback}"`).execute(db);
  } catch (err) {
    // Another migration of the same database may have created it a moment ago.
    const again = await find();
    if (again) return again;
    throw err;
  }
  return (await find())!;
}

/** The FTS5 rowid of a row: its account in the high bits, so an account is one range. */
const rowid = (row: 'new' | 'old') => `(${row}.account_id << 40) + ${row}.id`;

async function createSqlite(db: AnyDb): Promise<void> {
  for (const { table, columns } of SEARCHED) {
    const index = `${table}_trigrams`;
    const cols = columns.join(', ');
    const values = (row: 'new' | 'old') => columns.map((c) => indexed(c, row)).join(', ');
    // Outside the ranges the rowid would overlap another account's: refused, never indexed wrongly.
    const limit = `select raise(abort, '${table}: account id or id beyond the search index range') where new.account_id >= ${MAX_ACCOUNT} or new.id >= ${MAX_ID};`;
    // Case-sensitive: the columns are lower-cased already, so a phrase MATCH is exactly a substring
    // match of the lower-cased text (no folding of its own), and the index alone can count matches.
    await sql.raw(`create virtual table ${index} using fts5(${cols}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`).execute(db);
    await sql
      .raw(`insert into ${index} (rowid, ${cols}) select (account_id << 40) + id, ${columns.map((c) => indexed(c)).join(', ')} from ${table}`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_ai after insert on ${table} begin
        ${limit}
        insert into ${index} (rowid, ${cols}) values (${rowid('new')}, ${values('new')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_ad after delete on ${table} begin
        delete from ${index} where rowid = ${rowid('old')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_au after update of id, account_id, ${cols} on ${table} begin
        ${limit}
        delete from ${index} where rowid = ${rowid('old')};
        insert into ${index} (rowid, ${cols}) values (${rowid('new')}, ${values('new')}); end`)
      .execute(db);
  }
}

export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const { table } of SEARCHED) await dropContentSearch(db, table);
    await createSqlite(db);
    return;
  }
  const trigrams = await extensionSchema(db, 'pg_trgm', 'public');
  const btree = await extensionSchema(db, 'btree_gin', trigrams);
  for (const { table, columns } of SEARCHED) {
    const cols = columns.map((c) => `(${indexed(c)}) "${trigrams}".gin_trgm_ops`).join(', ');
    await sql.raw(`create index ${table}_account_trgm_idx on ${table} using gin (account_id "${btree}".int8_ops, ${cols})`).execute(db);
    for (const column of columns) await sql.raw(`drop index ${table}_${column}_trgm_idx`).execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const { table, columns } of SEARCHED) {
      for (const op of ['ai', 'ad', 'au']) await sql.raw(`drop trigger ${table}_trigrams_${op}`).execute(db);
      await sql.raw(`drop table ${table}_trigrams`).execute(db);
      await createContentSearch(db, table, columns, ' '.repeat(10));
    }
    return;
  }
  const trigrams = await extensionSchema(db, 'pg_trgm', 'public');
  for (const { table, columns } of SEARCHED) {
    for (const column of columns) {
      await sql.raw(`create index ${table}_${column}_trgm_idx on ${table} using gin (${column} "${trigrams}".gin_trgm_ops)`).execute(db);
    }
    await sql.raw(`drop index ${table}_account_trgm_idx`).execute(db);
  }
}
