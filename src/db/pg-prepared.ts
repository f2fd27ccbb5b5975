import pg from 'pg';

/**
 * A named statement run on the pool by the extended protocol, the way node-postgres runs a query
 * `{name, text, values}`, without the per-execution costs that are the same every time
 * (docs/design.md#prepared-queries): the query config is not copied, and the result's column
 * description (names and type parsers) is asked for once per pooled connection, with the statement's
 * first execution there, instead of on every execution (a Describe message, then a parser looked up
 * per column and an empty row object built per result). The statement lists its columns, so its
 * result has one shape for as long as it exists on the connection; a schema change that altered it
 * makes PostgreSQL refuse the execution ("cached plan must not change result type"), never answer
 * in another shape. Values are bound as node-postgres binds them, and results are read as text,
 * through the pool's type parsers.
 */

/** The part of node-postgres' connection a statement uses (pg's Query uses the same calls). */
interface Connection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name: string }): void;
  bind(config: { portal: string; statement: string; values: readonly unknown[]; binary: boolean; valueMapper: (value: unknown) => unknown }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  close(msg: { type: 'S'; name: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface Field {
  name: string;
  dataTypeID: number;
  format?: string;
}

type Parser = (value: string) => unknown;

/** The columns of the statement's result on one connection. */
interface Shape {
  names: string[];
  parsers: Parser[];
}

type GetTypeParser = (oid: number, format: 'text') => Parser;
type Row = Record<string, unknown>;

/** node-postgres' own conversion of a bound value (numbers, dates, buffers, arrays, JSON, toPostgres). */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;

export class PgStatement {
  readonly name: string;
  readonly text: string;
  readonly #getTypeParser: GetTypeParser;
  readonly #shapes = new WeakMap<Connection, Shape>();

  constructor(name: string, text: string, getTypeParser: GetTypeParser) {
    this.name = name;
    this.text = text;
    this.#getTypeParser = getTypeParser;
  }

  /** The rows of one execution on a pooled connection. */
  rows(pool: pg.Pool, values: readonly unknown[]): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      // With a callback, the pool hands the execution to a client, then calls back once it released it.
      const query = pool.query as unknown as (q: Execution, cb: (err: Error | undefined, rows?: Row[]) => void) => void;
      query.call(pool, new Execution(this, values), (err, rows) => (err ? reject(err) : resolve(rows!)));
    });
  }

  /** The shape on this connection, when the statement is parsed there and its result was described. */
  shapeOn(connection: Connection): Shape | undefined {
    return connection.parsedStatements[this.name] === this.text ? this.#shapes.get(connection) : undefined;
  }

  describe(connection: Connection, fields: readonly Field[]): Shape {
    const shape = { names: fields.map((f) => f.name), parsers: fields.map((f) => this.#getTypeParser(f.dataTypeID, 'text')) };
    this.#shapes.set(connection, shape);
    return shape;
  }
}

/**
 * One execution: a node-postgres "submittable" (as pg-cursor is), handed the connection when the
 * client's turn comes, then the backend's messages until ReadyForQuery.
 */
class Execution {
  /** Read by the client: a ParseComplete records `text` as parsed under `name` on the connection. */
  readonly name: string;
  readonly text: string;
  /** Set by the client (the pool's callback, wrapped by the client's query time-out when there is one). */
  callback?: (err: unknown, rows?: Row[]) => void;
  readonly #statement: PgStatement;
  readonly #values: readonly unknown[];
  #connection: Connection | null = null;
  #shape: Shape | undefined;
  readonly #rows: Row[] = [];
  #failure: unknown = null;
  #done = false;

  constructor(statement: PgStatement, values: readonly unknown[]) {
    this.#statement = statement;
    this.name = statement.name;
    this.text = statement.text;
    this.#values = values;
  }

  submit(connection: Connection): null {
    const statement = this.#statement;
    this.#connection = connection;
    this.#shape = statement.shapeOn(connection);
    const stream = connection.stream;
    // One write for the whole exchange, as node-postgres does.
    stream.cork?.();
    try {
      const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
      if (previous === undefined) {
        connection.parse({ text: this.text, name: this.name });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      try {
        connection.bind({ portal: '', statement: this.name, values: this.#values, binary: false, valueMapper: prepareValue });
      } catch (err) {
        // A value that cannot be bound: end the exchange (the backend then answers ReadyForQuery).
        connection.close({ type: 'S', name: this.name });
        connection.sync();
        this.#finish(err);
        return null;
      }
      if (!this.#shape) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    this.#shape = this.#statement.describe(this.#connection!, msg.fields);
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (this.#failure !== null) return;
    const shape = this.#shape;
    if (!shape) {
      this.#failure = new Error('PostgreSQL sent a row before its description');
      return;
    }
    const { names, parsers } = shape;
    const raw = msg.fields;
    const row: Row = {};
    try {
      for (let i = 0; i < names.length; i++) {
        const value = raw[i];
        row[names[i]] = value === null ? null : parsers[i](value);
      }
    } catch (err) {
      this.#failure = err;
      return;
    }
    this.#rows.push(row);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleError(err: unknown): void {
    this.#finish(this.#failure ?? err);
  }

  handleReadyForQuery(): void {
    if (this.#failure !== null) this.#finish(this.#failure);
    else this.#finish(null, this.#rows);
  }

  #finish(err: unknown, rows?: Row[]): void {
    if (this.#done) return;
    this.#done = true;
    this.callback?.(err, rows);
  }
}
