import { sql, type Expression, type SqlBool } from 'kysely';

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
