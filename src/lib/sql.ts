import type { Executor } from '../db/database.ts';
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { prepareQuery, type PreparedQuery } from '../db/prepared.ts';

/** Escapes LIKE metacharacters (`%`, `_`, `\`) so user text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * `column LIKE '%q%' ESCAPE '\'` over a lower-cased column with the query lower-cased in
 * JavaScript: a literal, case-insensitive substring match that behaves the same on both engines.
 */
export function containsText(column: string | Expression<string>, q: string): Expression<SqlBool> {
  return sql<SqlBool>`${typeof column === 'string' ? sql.ref(column) : column} like ${'%' + escapeLike(q.toLowerCase()) + '%'} escape ${'\\'}`;
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

/** Tables whose rows are addressed by id within an account. */
export type AccountTable = 'orgs' | 'users' | 'contacts' | 'deals' | 'tickets';

/** Per table, the prepared read of one id of an account (docs/design.md#prepared-queries). */
const existence = new Map<AccountTable, PreparedQuery<[accountId: number, id: number], { id: number }>>();

/** Whether the account has a row with this id: the one existence check behind every `<thing>_not_found`. */
export async function existsInAccount(db: Executor, table: AccountTable, accountId: number, id: number): Promise<boolean> {
  let read = existence.get(table);
  if (!read) {
    read = prepareQuery(
      (db, accountId: number, id: number) =>
        (db as unknown as Kysely<Record<AccountTable, { id: number; account_id: number }>>)
          .selectFrom(table)
          .select('id')
          .where('account_id', '=', accountId)
          .where('id', '=', id),
      { pipelined: true },
    );
    existence.set(table, read);
  }
  return (await read.rows(db, accountId, id)).length > 0;
}

/** First pages of these sizes (the API's default, the console's board and tables, the largest) have their size written into the statement. */
export const FIRST_PAGE_SIZES: ReadonlySet<number> = new Set([10, 20, 25, 50, 100]);

/**
 * `limit … offset …` of a page. A first page of a common size (`FIRST_PAGE_SIZES`) has its size
 * written in and no offset: on PostgreSQL the one plan a named statement keeps (made without the
 * values) then knows that it reads a few rows, where a plan made for an unknown limit or offset
 * assumes a tenth of the rows, so the server would go on planning each execution
 * (docs/design.md#named-statements-on-postgresql). Other pages bind both.
 */
export function pageWindow<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, limit: number, offset: number): SelectQueryBuilder<DB, TB, O> {
  return offset === 0 && FIRST_PAGE_SIZES.has(limit) ? query.limit(sql.lit(limit)) : query.limit(limit).offset(offset);
}

/**
 * `values` for an `in (…)` list, padded by repeating the last one to 1, 4, 8, 16… values: a list
 * whose length changes from one request to the next (the ids of a page, its orgs) is then one of a
 * few SQL texts, not one per length, so PostgreSQL keeps few named statements for it
 * (db/pg-statement-names.ts names only such lists). A repeated value matches nothing more.
 */
export function inList<T>(values: readonly T[]): T[] {
  if (values.length <= 1) return [...values];
  let size = 4;
  while (size < values.length) size *= 2;
  const padded = [...values];
  while (padded.length < size) padded.push(values[values.length - 1]);
  return padded;
}

/** One page of a list kept newest first (`created_at` desc, then `id` desc, as every such list of the API). */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  offset: number,
): SelectQueryBuilder<DB, TB, O> {
  return pageWindow(query.orderBy(sql.ref('created_at'), 'desc').orderBy(sql.ref('id'), 'desc'), limit, offset);
}
