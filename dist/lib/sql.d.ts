import type { Executor } from '../db/database.ts';
import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
/** Escapes LIKE metacharacters (`%`, `_`, `\`) so user text matches literally. */
export declare function escapeLike(text: string): string;
/**
 * `column LIKE '%q%' ESCAPE '\'` over a lower-cased column with the query lower-cased in
 * JavaScript: a literal, case-insensitive substring match that behaves the same on both engines.
 */
export declare function containsText(column: string, q: string): Expression<SqlBool>;
/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL 23505): a lost race on a unique key. */
export declare function isUniqueViolation(err: unknown): boolean;
/**
 * `count(*)` of a filtered query, as a number on both engines. Lists call it only for filters
 * that an index narrows (an org, an owner, a search term, a date range); the whole list and a
 * status read kept counts instead (list-counts.ts).
 */
export declare function countRows<DB, TB extends keyof DB>(_db: Executor, query: SelectQueryBuilder<DB, TB, object>): Promise<number>;
/**
 * A text column ordered by code point on both engines: PostgreSQL's locale collation would
 * order differently from SQLite's binary one; `collate "C"` also lets it use the index.
 */
export declare function codePointOrder(db: {
    getExecutor(): {
        adapter: unknown;
    };
}, column: string): RawBuilder<string>;
export declare function isPostgres(db: {
    getExecutor(): {
        adapter: unknown;
    };
}): boolean;
/**
 * Locks the selected rows until the transaction ends, on PostgreSQL. SQLite needs no lock: its
 * one connection runs one transaction at a time.
 */
export declare function lockedForUpdate<Q extends {
    forUpdate(): Q;
}>(db: {
    getExecutor(): {
        adapter: unknown;
    };
}, query: Q): Q;
/** Tables whose rows are addressed by id within an account. */
export type AccountTable = 'orgs' | 'users' | 'contacts' | 'deals' | 'tickets';
/** Whether the account has a row with this id: the one existence check behind every `<thing>_not_found`. */
export declare function existsInAccount(db: Executor, table: AccountTable, accountId: number, id: number): Promise<boolean>;
