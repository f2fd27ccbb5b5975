import { sql, type Expression, type SqlBool } from 'kysely';
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
  columns: string[],
  q: string,
): Expression<SqlBool> {
  const exact = sql<SqlBool>`(${sql.join(
    columns.map((c) => containsText(c, q)),
    sql` or `,
  )})`;
  const lowered = q.toLowerCase();
  const candidates = [...lowered].length < MIN_INDEXED_TERM ? null : engineOf(db).trigramCandidates(table, accountId, lowered);
  return candidates === null ? exact : sql<SqlBool>`(${candidates} and ${exact})`;
}
