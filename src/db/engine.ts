import { PostgresAdapter, sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Executor } from './database.ts';
import { COMMIT_MARKER } from './pg-statement-names.ts';

/**
 * Everything that differs between SQLite and PostgreSQL, in one place. Code that needs an
 * engine-specific statement asks `engineOf(db)` for it; nothing else tests which engine runs.
 */
export interface Engine {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Locks the selected rows until the transaction ends, so concurrent read-modify-writes of one
   * row run one after the other. SQLite needs no lock: its one connection runs one transaction at a time.
   */
  forUpdate<Q extends { forUpdate(): Q }>(query: Q): Q;
  /**
   * Claims the selected rows for this transaction, skipping rows another transaction claimed
   * (`FOR UPDATE [OF table] SKIP LOCKED`), so concurrent workers never take the same row. SQLite's
   * one writer needs no lock.
   */
  claimRows<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
    of?: Parameters<SelectQueryBuilder<DB, TB, O>['forUpdate']>[0],
  ): SelectQueryBuilder<DB, TB, O>;
  /**
   * A text column ordered by code point: PostgreSQL's locale collation would order differently
   * from SQLite's binary one; `collate "C"` also lets it use the index.
   */
  codePointOrder(column: string): RawBuilder<string>;
  /**
   * Takes a lock named by (`space`, `name`) until the transaction ends, without waiting: false
   * when another transaction holds it. SQLite runs one write transaction at a time, so it always
   * gets it (concurrent requests of one process are told apart before their transactions).
   */
  tryTransactionLock(trx: Executor, space: number, name: string): Promise<boolean>;
  /**
   * The lock of `tryTransactionLock` as an expression (true when taken), to add to a statement the
   * transaction runs anyway: no round trip of its own. Null on SQLite, where it is always held.
   */
  transactionLock(space: number, name: string): RawBuilder<boolean> | null;
  /**
   * An expression that, evaluated in a transaction, signals `channel` to listeners in every process
   * once it commits (never if it rolls back; several fold into one): added to a statement the
   * transaction runs anyway, it costs no round trip of its own. Null on SQLite, which has no
   * cross-process signal: a short poll covers it.
   */
  notifyOnCommit(channel: string): RawBuilder<unknown> | null;
  /**
   * The rows of `table` in the account that may contain `term` (lower-cased, at least three
   * characters), found through SQLite's FTS5 trigram table `<table>_trigrams`, whose rowid is
   * `(account_id << 40) + id`: the MATCH seeks to the account's rowid range, so it reads the
   * account's entries only. Null on PostgreSQL, where the GIN index over the account and the
   * columns (btree_gin and pg_trgm) answers the account filter and the `LIKE` itself.
   */
  trigramCandidates(table: string, accountId: number, term: string): RawBuilder<SqlBool> | null;
  /**
   * How many rows of `table` in the account contain `term` (lower-cased, at least three
   * characters) in any searched column, counted in the trigram index alone: on SQLite the FTS5
   * table is case-sensitive over the lower-cased columns, so its phrase MATCH is exactly that
   * substring match and holds exactly the live rows. Null on PostgreSQL, whose trigram index
   * only narrows the rows to recheck.
   */
  trigramCount(table: string, accountId: number, term: string): RawBuilder<{ n: number }> | null;
  /** The schema the connection's search_path selects, when not the default one (PostgreSQL). */
  currentSchema(db: Executor): Promise<string | undefined>;
  /**
   * Whether one statement may write several tables and pass rows between them (data-modifying
   * `WITH`, `UPDATE … FROM (VALUES …)`), so a set-based write costs one round trip: the webhook
   * dispatcher then fans out, claims and records successes that way (`modules/webhooks/dispatch.postgres.ts`).
   * SQLite has no such statements and no round trips to save: its statements run in-process.
   */
  readonly multiTableStatements: boolean;
  /**
   * Written at the end of a transaction's last statement, it sends the transaction's commit with
   * that statement, one round trip for both (PostgreSQL: the pool's client, pg-statement-names.ts);
   * null on SQLite, whose statements run in-process.
   */
  readonly commitMarker: string | null;
  /**
   * Fresh planner statistics after a bulk load: SQLite `ANALYZE` (all of each index: a sample, with
   * `analysis_limit`, sees one account's nulls and repeats and makes the planner walk the whole account
   * instead of a selective index, docs/scaling.md#seeding); PostgreSQL `VACUUM (ANALYZE)`, which
   * also makes the visibility map cover the new pages, so lists read page ids from the index alone,
   * without blocking writers. Outside a transaction.
   */
  refreshStatistics(db: Executor, tables: readonly string[]): Promise<void>;
}

/** The account's entries of SQLite's `<table>_trigrams` that hold `term` (docs/scaling.md#search). */
function trigramMatch(table: string, accountId: number, term: string) {
  const index = sql.table(`${table}_trigrams`);
  const phrase = '"' + term.replaceAll('"', '""') + '"';
  // The bounds must be integers: FTS5 ignores a rowid bound of another type (a bound JavaScript
  // number is a REAL) and would then walk every account's entries; `<<` makes them integers.
  const first = sql`(${accountId} << 40)`;
  // The last rowid of the account as `first + (2^40 - 1)`: `(account + 1) << 40` overflows for the last account id.
  return { index, first, within: sql<SqlBool>`${index} match ${phrase} and rowid >= ${first} and rowid <= ${first} + 1099511627775` };
}

const sqliteEngine: Engine = {
  name: 'sqlite',
  forUpdate: (query) => query,
  claimRows: (query) => query,
  codePointOrder: (column) => sql<string>`${sql.ref(column)}`,
  tryTransactionLock: async () => true,
  transactionLock: () => null,
  notifyOnCommit: () => null,
  trigramCandidates(table, accountId, term) {
    const { index, first, within } = trigramMatch(table, accountId, term);
    return sql<SqlBool>`${sql.ref(`${table}.id`)} in (select rowid - ${first} from ${index} where ${within})`;
  },
  trigramCount(table, accountId, term) {
    const { index, within } = trigramMatch(table, accountId, term);
    return sql<{ n: number }>`select count(*) as n from ${index} where ${within}`;
  },
  currentSchema: async () => undefined,
  multiTableStatements: false,
  commitMarker: null,
  async refreshStatistics(db) {
    await sql`analyze`.execute(db);
  },
};

const postgresLock = (space: number, name: string) => sql<boolean>`pg_try_advisory_xact_lock(${space}::int4, hashtext(${name}))`;

const postgresEngine: Engine = {
  name: 'postgres',
  forUpdate: (query) => query.forUpdate(),
  claimRows: (query, of) => (of === undefined ? query.forUpdate() : query.forUpdate(of)).skipLocked(),
  codePointOrder: (column) => sql<string>`${sql.ref(column)} collate "C"`,
  async tryTransactionLock(trx, space, name) {
    const { rows } = await sql<{ locked: boolean }>`select ${postgresLock(space, name)} as locked`.execute(trx);
    return rows[0].locked;
  },
  transactionLock: (space, name) => postgresLock(space, name),
  notifyOnCommit: (channel) => sql`pg_notify(${channel}, '')`,
  trigramCandidates: () => null,
  trigramCount: () => null,
  async currentSchema(db) {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const current = rows[0]?.schema;
    return current && current !== 'public' ? current : undefined;
  },
  multiTableStatements: true,
  commitMarker: COMMIT_MARKER,
  async refreshStatistics(db, tables) {
    await sql`vacuum (analyze) ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
  },
};

/** The engine behind a database or transaction: the one place that asks which it is. */
export function engineOf(db: { getExecutor(): { adapter: unknown } }): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresEngine : sqliteEngine;
}
