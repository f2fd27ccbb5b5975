import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { containsText } from './sql.ts';

/** Tables with a substring search index (see the search_by_account migration): SQLite's FTS5 table is `<table>_trigrams`. */
export type SearchedTable = 'deals' | 'tickets' | 'orgs' | 'contacts';

/** Trigram indexes match terms of at least this many characters; shorter ones are a scan of the account's rows. */
export const MIN_INDEXED_TERM = 3;

/**
 * `q` as a case-insensitive, literal substring of any of `columns` (lower-cased columns,
 * `q` lower-cased here) in rows of account `accountId` (the query filters on the account too),
 * served by a trigram index that reads that account's entries only. On PostgreSQL the account
 * filter and the `LIKE` are what the GIN index over (account_id, columns) answers. On SQLite
 * the FTS5 trigram table yields the account's candidate rows (every row holding all of the
 * term's trigrams in a row) and the same `LIKE` keeps the exact matches, so the answer is the
 * plain scan's answer on both engines, only found through an index. Terms under three
 * characters have no trigram to look up: they scan.
 */
export function matchesText(
  db: { getExecutor(): { adapter: unknown } },
  table: SearchedTable,
  accountId: number,
  columns: (string | Expression<string>)[],
  q: string,
  options: { viaIndex?: boolean } = {},
): Expression<SqlBool> {
  const exact = sql<SqlBool>`(${sql.join(
    columns.map((c) => containsText(c, q)),
    sql` or `,
  )})`;
  const lowered = q.toLowerCase();
  const indexed = options.viaIndex !== false && [...lowered].length >= MIN_INDEXED_TERM;
  const candidates = indexed ? engineOf(db).trigramCandidates(table, accountId, lowered) : null;
  return candidates === null ? exact : sql<SqlBool>`(${candidates} and ${exact})`;
}

/**
 * The number of the account's rows of `table` that `matchesText` keeps for `q`, counted in the
 * trigram index alone where the engine can count there exactly (SQLite: a few microseconds per
 * match instead of a row lookup each); null where it cannot (PostgreSQL, terms under three characters).
 */
export async function countTextMatches(db: Executor, table: SearchedTable, accountId: number, q: string): Promise<number | null> {
  const lowered = q.toLowerCase();
  if ([...lowered].length < MIN_INDEXED_TERM) return null;
  const count = engineOf(db).trigramCount(table, accountId, lowered);
  if (count === null) return null;
  const { rows } = await count.execute(db);
  return Number(rows[0]!.n);
}
