import type { Executor } from '../db/database.ts';
import { PostgresAdapter, sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

/** Escapes LIKE metacharacters (`%`, `_`, `\`) so user text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * `column LIKE '%q%' ESCAPE '\'` over a lower-cased column with the query lower-cased in
 * JavaScript: a literal, case-insensitive substring match that behaves the same on both engines.
 */
export function containsText(column: string, q: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${'%' + escapeLike(q.toLowerCase()) + '%'} escape ${'\\'}`;
}

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL 23505): a lost race on a unique key. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505') return true;
  return typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}

/**
 * `count(*)` of a filtered query, as a number on both engines. Lists call it only for filters
 * that an index narrows (an org, an owner, a search term, a date range); the whole list and a
 * status read kept counts instead (list-counts.ts).
 */
export async function countRows<DB, TB extends keyof DB>(_db: Executor, query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const row = (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()) as { n: number | string };
  return Number(row.n);
}

/**
 * A text column ordered by code point on both engines: PostgreSQL's locale collation would
 * order differently from SQLite's binary one; `collate "C"` also lets it use the index.
 */
export function codePointOrder(db: { getExecutor(): { adapter: unknown } }, column: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}

export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Locks the selected rows until the transaction ends, on PostgreSQL. SQLite needs no lock: its
 * one connection runs one transaction at a time.
 */
export function lockedForUpdate<Q extends { forUpdate(): Q }>(db: { getExecutor(): { adapter: unknown } }, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/** Tables whose rows are addressed by id within an account. */
export type AccountTable = 'orgs' | 'users' | 'contacts' | 'deals' | 'tickets';

/** Whether the account has a row with this id: the one existence check behind every `<thing>_not_found`. */
export async function existsInAccount(db: Executor, table: AccountTable, accountId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

