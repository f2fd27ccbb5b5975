import pg from 'pg';

/**
 * Named statements for the SQL this process runs again and again on PostgreSQL
 * (docs/design.md#named-statements-on-postgresql).
 *
 * node-postgres sends a query without a name as an unnamed statement: the server parses and plans
 * it on every execution, and for the short reads of this API (an existence check, a count of an
 * org's deals, a page of 25 rows joined by primary key) planning costs more than running: the
 * activity feed's support entries took 0.56–1.23 ms to plan and 0.28 ms to run at a million deals.
 * Given a name, the statement is parsed once per connection, and after five executions the server
 * keeps one plan for it (its generic plan) whenever that plan is estimated to cost no more than
 * planning each execution again; otherwise it goes on planning each one as before.
 *
 * A text is named once it has run `NAMED_AFTER` times (one-off statements, such as a bulk load's,
 * stay unnamed), and at most `MAX_NAMED` texts are named per process, because every pooled
 * connection keeps each statement it ran for its lifetime (about 20–100 kB of server memory each).
 * Only texts whose plan does not hinge on the values are named:
 * - no pattern match (`like`, `ilike`, `similar to`, `~`): a search term's plan depends on the
 *   term (a common one walks a sort index, a rare one the trigram index, a one-letter one scans);
 * - no range (`<`, `>`, `<=`, `>=`, `between`): a day and a year want different plans, and a plan
 *   made for neither would be wrong for one; unless the text carries `RANGES_OF_NOW` (below);
 * - no `offset`: a page deep in a list has its own plan (a first page has its size written in and
 *   no offset, lib/sql.ts pageWindow);
 * - no `*` in a select list or `returning` (a statement's result may not change shape while it is
 *   prepared: a column added by a migration would make the server refuse it);
 * - an `in (…)` list of parameters holds 1, 4, 8, 16… of them (lib/sql.ts inList pads a list to
 *   those lengths), so a list's varying length makes a few texts, not one per length;
 * - one data statement (`select`, `insert`, `update`, `delete`, `with`), no `;`.
 *
 * A named statement the server refuses as stale (a migration changed a listed column's type:
 * "cached plan must not change result type"; or the statement is gone) runs unnamed from then on
 * on that connection, and the refused execution is run again unnamed when it was outside a
 * transaction (nothing of it ran); inside one, the transaction fails as it would on any error.
 */
export const NAMED_AFTER = 3;
export const MAX_NAMED = 500;
/** Texts whose runs are being counted, at most; the count starts over when full. */
const MAX_COUNTED = 5_000;

/**
 * Carried by a text (anywhere in it) whose ranges over table columns all compare with the present
 * moment: a webhook delivery due (`next_attempt_at <= now`), a lease run out (`locked_until <= now`);
 * any other range is between computed values (a row number and an allowance), which no index
 * serves. The moment moves on with the clock but always picks the same kind of rows, the ones due
 * now, so one plan can serve every run: such a text may be named despite its ranges. Its author writes it
 * so that the plan kept for it, whose estimates know no value, finds those rows through their index
 * (an existence check as the first row of the index's order, not `exists`, which a plan guessing
 * a third of the table due would answer by a scan): test/system/named-statements.test.ts checks
 * each such statement's generic plan. A pattern match or an offset still keeps it unnamed.
 */
export const RANGES_OF_NOW = '/* ranges of now */';

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** A pattern match or an offset. */
const PATTERN_OR_OFFSET = /\b(i?like|similar\s+to|offset)\b|~/i;
/** A range. `<` and `>` count unless part of `<>` (a negated equality), `->`, `->>`, `@>`, `<@` or `=>`. */
const RANGE = /\bbetween\b|(?<![<>@=-])[<>](?![<>@])/i;
/** `t.*` or `"t".*`, or a bare `*` after `select`, `distinct`, `returning` or a comma of a select list (not `count(*)`, not `a * b`). */
const STAR_RESULT = /("[^"]*"|\b\w+)\.\*|\b(select|distinct|returning)\s+\*|,\s*\*(?=\s|,|$)/i;
/** An `in (…)` list of parameters. */
const PARAMETER_LIST = /\bin\s*\((\s*\$\d+\s*(?:,\s*\$\d+\s*)*)\)/gi;

/** A list length `inList` pads to: 1, or a power of two from 4. */
const paddedLength = (n: number) => n === 1 || (n >= 4 && (n & (n - 1)) === 0);

/** Whether a text may be named: the plan kept for it is fit for every value (see above). */
export function nameable(text: string): boolean {
  if (!DATA_STATEMENT.test(text) || text.includes(';') || PATTERN_OR_OFFSET.test(text) || STAR_RESULT.test(text)) return false;
  if (!text.includes(RANGES_OF_NOW) && RANGE.test(text)) return false;
  for (const list of text.matchAll(PARAMETER_LIST)) if (!paddedLength(list[1].split(',').length)) return false;
  return true;
}

/** The names this process gives to SQL texts: the same text has the same name on every connection. */
export class StatementNames {
  readonly #names = new Map<string, string>();
  /** Runs so far of texts not yet named; -1 for a text that is never named. */
  readonly #runs = new Map<string, number>();
  readonly #maxNamed: number;

  constructor(maxNamed: number = MAX_NAMED) {
    this.#maxNamed = maxNamed;
  }

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= this.#maxNamed) return name;
    const before = this.#runs.get(text) ?? 0;
    if (before < 0) return undefined;
    if (before + 1 < NAMED_AFTER || !nameable(text)) {
      if (this.#runs.size >= MAX_COUNTED) this.#runs.clear();
      this.#runs.set(text, before + 1 < NAMED_AFTER ? before + 1 : -1);
      return undefined;
    }
    this.#runs.delete(text);
    const named = `custops_s${this.#names.size + 1}`;
    this.#names.set(text, named);
    return named;
  }

  /** How many texts run under a name. */
  get size(): number {
    return this.#names.size;
  }
}

/** A named statement the server no longer runs: its result changed shape, or it is gone. */
function stale(err: { code?: string; message?: string } | undefined): boolean {
  return (err?.code === '0A000' && /cached plan must not change result type/.test(err.message ?? '')) || err?.code === '26000';
}

/** The name `begin` runs under on every connection: parsed once, then bound and executed only. */
export const BEGIN_STATEMENT = 'custops_begin';
/** The same for `commit`. */
export const COMMIT_STATEMENT = 'custops_commit';
/**
 * Ends a statement that is its transaction's last (engine.ts `commitMarker`): the client sends the
 * transaction's `commit` with it, and answers the `commit` that follows without a round trip.
 */
export const COMMIT_MARKER = '-- and commit';

type Connection = {
  parsedStatements: Record<string, string>;
  stream: { cork?(): void; uncork?(): void };
  bind(msg: { portal: string; statement: string; values: unknown[]; binary: boolean }): void;
  execute(msg: { portal: string }): void;
};
type ClientState = { connection: Connection; _txStatus?: string; _queryQueue: unknown[]; _activeQuery?: unknown };

const noValues = (values: unknown) => values === undefined || (Array.isArray(values) && values.length === 0);

/** What a `begin`, `commit` or `rollback` that was answered without a round trip resolves to. */
function emptyResult(command: string): pg.QueryResult {
  return { command: command.toUpperCase(), rowCount: null, oid: 0, rows: [], fields: [] };
}

/**
 * A node-postgres client class for a pool (`new pg.Pool({ Client })`) that runs the texts `names`
 * names as named statements, and sends a transaction's `begin` with its first statement. Only
 * `query(text, values)` calls with a promise (Kysely's) are changed; query objects, submittables
 * and callbacks pass through as they are.
 *
 * `begin` (Kysely's, on an idle connection where it has run once as the named statement
 * `custops_begin`) is answered at once and sent with the next statement, in the same write: its
 * Bind and Execute, then that statement's messages and one Sync, so the server starts the
 * transaction and runs the statement in one round trip. Its answers (BindComplete, CommandComplete
 * `BEGIN`) reach that statement's query ahead of its own, whose result is the last of the two. A
 * `commit` or `rollback` right after it ends a transaction that never started: nothing is sent.
 * Any other next query (no values, a query object) gets the `begin` as its own query first, as
 * before. If that first statement fails, the transaction is aborted (or, had `begin` itself failed,
 * never started) and the caller rolls back as after any failed statement: such a statement is
 * never run again unnamed (see above), since outside the transaction it would not be the same.
 */
export function namingClient(names: StatementNames): typeof pg.Client {
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  /** Per connection: names the server refused as stale, whose texts run unnamed there from then on. */
  const refused = new WeakMap<pg.Client, Set<string>>();
  /** Connections whose `begin` was answered and is still to be sent. */
  const beginning = new WeakSet<pg.Client>();
  /** Connections whose transaction committed with its last statement: the `commit` that follows is answered here. */
  const committed = new WeakSet<pg.Client>();
  class NamingClient extends pg.Client {}

  /**
   * The statement `config` in one write with a `begin` ahead of it and/or a `commit` after it, under
   * one Sync; resolves to the statement's own result. Should the statement fail, the server skips
   * the `commit` (up to the Sync) and the transaction is left aborted, to be rolled back.
   */
  const along = (
    client: pg.Client,
    config: { name?: string; text: string; values: unknown[] },
    around: { begin: boolean; commit: boolean },
  ): Promise<pg.QueryResult> =>
    new Promise((resolve, reject) => {
      let settled = false;
      // A value that cannot be bound is reported, then the ReadyForQuery of the Sync sent after it
      // calls back again: only the first call counts.
      const done = (err: Error | undefined, result: pg.QueryResult | pg.QueryResult[]) => {
        if (settled) return;
        settled = true;
        if (err) {
          // A stale name is given up on this connection, as `named` does; the transaction fails.
          if (config.name && stale(err)) refused.set(client, (refused.get(client) ?? new Set<string>()).add(config.name));
          return reject(err);
        }
        if (around.commit) committed.add(client);
        resolve(Array.isArray(result) ? result[around.begin ? 1 : 0] : result);
      };
      const statement = new pg.Query(config, undefined, done as never) as unknown as { submit(connection: Connection): Error | null };
      const submit = statement.submit;
      statement.submit = function (this: unknown, connection: Connection) {
        connection.stream.cork?.();
        try {
          if (around.begin) {
            connection.bind({ portal: '', statement: BEGIN_STATEMENT, values: [], binary: false });
            connection.execute({ portal: '' });
          }
          if (!around.commit) return submit.call(this, connection);
          // The commit goes right after the statement's Execute, before its Sync. A statement that
          // is never executed (a value that cannot be bound) gets no commit.
          const execute = connection.execute;
          connection.execute = (msg) => {
            connection.execute = execute;
            execute.call(connection, msg);
            connection.bind({ portal: '', statement: COMMIT_STATEMENT, values: [], binary: false });
            execute.call(connection, { portal: '' });
          };
          try {
            return submit.call(this, connection);
          } finally {
            connection.execute = execute;
          }
        } finally {
          connection.stream.uncork?.();
        }
      };
      query.call(client, statement);
    });

  /** Runs `text` under its name where it has one; a stale name is refused on this connection, and the text run unnamed when nothing of it ran. */
  const named = (client: pg.Client, text: string, values: unknown[]): Promise<unknown> | null => {
    const name = names.nameFor(text);
    if (!name || refused.get(client)?.has(name)) return null;
    return (query.call(client, { name, text, values }) as Promise<unknown>).catch((err: { code?: string; message?: string }) => {
      if (!stale(err)) throw err;
      const set = refused.get(client) ?? new Set<string>();
      refused.set(client, set.add(name));
      // The status the server gave before this statement (its error reaches us before the next
      // one): 'I', outside a transaction, so the refused execution ran nothing and may run again.
      if ((client as unknown as ClientState)._txStatus !== 'I') throw err;
      return query.call(client, text, values);
    });
  };

  NamingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [text, values, callback] = args;
    const state = this as unknown as ClientState;
    const call = typeof text === 'string' && callback === undefined && (values === undefined || Array.isArray(values));
    const parsed = state.connection.parsedStatements;
    if (call && committed.delete(this)) {
      if (text === 'commit' && noValues(values)) return Promise.resolve(emptyResult('commit'));
      // Only a commit may follow a transaction's last statement: what it wrote is committed.
      return Promise.reject(new Error(`a transaction committed with its last statement, then ran: ${String(text).slice(0, 40)}`));
    }
    if (call && text === 'begin' && noValues(values) && !beginning.has(this)) {
      const idle = state._txStatus === 'I' && !state._activeQuery && state._queryQueue.length === 0;
      if (idle && parsed[BEGIN_STATEMENT] === 'begin') {
        beginning.add(this);
        return Promise.resolve(emptyResult('begin'));
      }
      if (idle) return query.call(this, { name: BEGIN_STATEMENT, text: 'begin', values: [] });
    } else if (call && text === 'commit' && noValues(values) && parsed[COMMIT_STATEMENT] !== 'commit' && !beginning.has(this)) {
      // The first commit on a connection runs as the named statement, so a last statement can bring it later.
      return query.call(this, { name: COMMIT_STATEMENT, text: 'commit', values: [] });
    }
    const begin = beginning.delete(this);
    if (begin && call && (text === 'commit' || text === 'rollback') && noValues(values)) return Promise.resolve(emptyResult(text));
    const commit = call && !noValues(values) && (text as string).endsWith(COMMIT_MARKER) && parsed[COMMIT_STATEMENT] === 'commit';
    if ((begin || commit) && call && !noValues(values)) {
      const name = names.nameFor(text as string);
      const config = { text: text as string, values: values as unknown[] };
      return along(this, name && !refused.get(this)?.has(name) ? { name, ...config } : config, { begin, commit: commit && (begin || state._txStatus === 'T') });
    }
    if (begin) {
      const begun = query.call(this, { name: BEGIN_STATEMENT, text: 'begin', values: [] }) as Promise<unknown>;
      if (call) return begun.then(() => query.apply(this, args));
      // A query object or a callback: queued behind the begin, which the server answers first.
      begun.catch(() => {});
      return query.apply(this, args);
    }
    if (call && !noValues(values)) return named(this, text as string, values as unknown[]) ?? query.apply(this, args);
    return query.apply(this, args);
  } as pg.Client['query'];
  return NamingClient;
}
