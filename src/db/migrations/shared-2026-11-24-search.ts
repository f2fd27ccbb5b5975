// Frozen in time, as the migrations that import it (2026-11-24T2210_search_index and
// 2026-11-25T0400_search_by_account): never edited once released, since editing it would change
// what those migrations do. A later migration that needs something like it copies it instead.
// It imports no application code.
import { sql, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/** The searched tables and their lower-cased (or, for `domain`, case-insensitive) columns. */
export const SEARCHED: { table: string; columns: string[] }[] = [
  { table: 'deals', columns: ['title_lc'] },
  { table: 'tickets', columns: ['title_lc'] },
  { table: 'orgs', columns: ['name_lc', 'domain'] },
  { table: 'contacts', columns: ['name_lc', 'email_lc'] },
];

/**
 * SQLite: the external-content FTS5 table `<table>_search` of migration 2026-11-24T2210 over
 * `columns` (`trigram` tokenizer, rowid the row's id), kept by triggers, built from the table.
 * `indent` is the white space before each statement of a trigger body, as each migration wrote
 * it (SQLite keeps a trigger's text as written).
 */
export async function createContentSearch(db: AnyDb, table: string, columns: string[], indent: string): Promise<void> {
  const index = `${table}_search`;
  const cols = columns.join(', ');
  const values = (row: 'new' | 'old') => columns.map((c) => `${row}.${c}`).join(', ');
  await sql.raw(`create virtual table ${index} using fts5(${cols}, content='${table}', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql
    .raw(`create trigger ${index}_ai after insert on ${table} begin
${indent}insert into ${index} (rowid, ${cols}) values (new.id, ${values('new')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger ${index}_ad after delete on ${table} begin
${indent}insert into ${index} (${index}, rowid, ${cols}) values ('delete', old.id, ${values('old')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger ${index}_au after update of ${cols} on ${table} begin
${indent}insert into ${index} (${index}, rowid, ${cols}) values ('delete', old.id, ${values('old')});
${indent}insert into ${index} (rowid, ${cols}) values (new.id, ${values('new')}); end`)
    .execute(db);
  await sql.raw(`insert into ${index} (${index}) values ('rebuild')`).execute(db);
}

/** SQLite: drops what createContentSearch made for `table`. */
export async function dropContentSearch(db: AnyDb, table: string): Promise<void> {
  for (const op of ['ai', 'ad', 'au']) await sql.raw(`drop trigger ${table}_search_${op}`).execute(db);
  await sql.raw(`drop table ${table}_search`).execute(db);
}
