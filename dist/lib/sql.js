import { PostgresAdapter, sql } from 'kysely';
/** Escapes LIKE metacharacters (`%`, `_`, `\`) so user text matches literally. */
export function escapeLike(text) {
    return text.replace(/[\\%_]/g, (c) => '\\' + c);
}
/**
 * `column LIKE '%q%' ESCAPE '\'` over a lower-cased column with the query lower-cased in
 * JavaScript: a literal, case-insensitive substring match that behaves the same on both engines.
 */
export function containsText(column, q) {
    return sql `${sql.ref(column)} like ${'%' + escapeLike(q.toLowerCase()) + '%'} escape ${'\\'}`;
}
/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL 23505): a lost race on a unique key. */
export function isUniqueViolation(err) {
    const e = err;
    if (!e || typeof e !== 'object')
        return false;
    if (e.code === '23505')
        return true;
    return typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}
/**
 * `count(*)` of a filtered query, as a number on both engines. Lists call it only for filters
 * that an index narrows (an org, an owner, a search term, a date range); the whole list and a
 * status read kept counts instead (list-counts.ts).
 */
export async function countRows(_db, query) {
    const row = (await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow());
    return Number(row.n);
}
/**
 * A text column ordered by code point on both engines: PostgreSQL's locale collation would
 * order differently from SQLite's binary one; `collate "C"` also lets it use the index.
 */
export function codePointOrder(db, column) {
    return isPostgres(db) ? sql `${sql.ref(column)} collate "C"` : sql `${sql.ref(column)}`;
}
export function isPostgres(db) {
    return db.getExecutor().adapter instanceof PostgresAdapter;
}
/**
 * Locks the selected rows until the transaction ends, on PostgreSQL. SQLite needs no lock: its
 * one connection runs one transaction at a time.
 */
export function lockedForUpdate(db, query) {
    return isPostgres(db) ? query.forUpdate() : query;
}
/** Whether the account has a row with this id: the one existence check behind every `<thing>_not_found`. */
export async function existsInAccount(db, table, accountId, id) {
    const row = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row !== undefined;
}
