import pg from 'pg';

/**
 * Named statements for the SQL this process runs again and again on PostgreSQL
 * (docs/design.md#named-statements-on-postgresql).
 *
 * node-postgres sends a query without a name as an unnamed statement: the server parses and plans
 * it on every execution, and for the short reads of this API (an existence check, a count of an
 * org's deals, a page of 25 rows joined by primary key) planning costs more than running: in the
 * activity feed 0.56–1.23 ms of planning against 0.28 ms of execution at a million deals. Given a
 * name, the statement is parsed once per connection, and after five executions the server keeps
 * one plan for it (its generic plan) whenever that plan is estimated to cost no more than planning
 * each execution again; otherwise it goes on planning each one as before.
 *
 * A text is named once it has run `NAMED_AFTER` times (one-off statements, such as a bulk load's,
 * stay unnamed), and at most `MAX_NAMED` texts are named per process, because every pooled
 * connection keeps each statement it ran for its lifetime. Only texts whose plan does not hinge on
 * the values are named:
 * - no `LIKE` (a search term's plan depends on the term: a common one walks a sort index, a rare
 *   one the trigram index, a one-letter one scans);
 * - no `<`, `>`, `<=`, `>=` or `between` next to a parameter (a date range of a day and one of a
 *   year want different plans; a plan made for neither would be wrong for one);
 * - no `*` in a select list or `returning` (a statement's result may not change shape while it is
 *   prepared: a column added by a migration would make the server refuse it until the process
 *   restarts, where a listed column keeps working);
 * - one data statement (`select`, `insert`, `update`, `delete`, `with`), no `;`.
 */
export const NAMED_AFTER = 3;
export const MAX_NAMED = 500;
/** Texts whose runs are being counted, at most; the count starts over when full. */
const MAX_COUNTED = 5_000;

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** `like`, `between`, or `<`, `>`, `<=`, `>=` on either side of a parameter (`<>` is an equality test's negation: it may be named). */
const VALUE_DEPENDENT_PLAN = /\blike\b|\bbetween\b|(?<![<>!])[<>](?!>)=?\s*\$\d|\$\d+(::[\w ]+)?\s*(<(?!>)|>)/i;
/** `"t".*`, or a bare `*` after `select`, `distinct`, `returning` or a comma of a select list (not `count(*)`, not `a * b`). */
const STAR_RESULT = /"[^"]*"\.\*|\b(select|distinct|returning)\s+\*|,\s*\*(?=\s|,|$)/i;

/** Whether a text may be named: the plan kept for it is fit for every value (see above). */
export function nameable(text: string): boolean {
  return DATA_STATEMENT.test(text) && !text.includes(';') && !VALUE_DEPENDENT_PLAN.test(text) && !STAR_RESULT.test(text);
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

/**
 * A node-postgres client class for a pool (`new pg.Pool({ Client })`) that runs the texts `names`
 * names as named statements. Only `query(text, values)` calls with a promise (Kysely's) are
 * changed; query objects, submittables and callbacks pass through as they are.
 */
export function namingClient(names: StatementNames): typeof pg.Client {
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  class NamingClient extends pg.Client {}
  NamingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const name = names.nameFor(text);
      if (name) return query.call(this, { name, text, values });
    }
    return query.apply(this, args);
  } as pg.Client['query'];
  return NamingClient;
}
