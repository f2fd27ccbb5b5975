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

  /**
   * The rows of one execution on a pooled connection: sent at once in an exchange of its own, or,
   * `pipelined`, with the other pipelined executions asked for in the same event-loop turn
   * (`Pipeline`): one connection, one write, one round trip.
   */
  rows(pool: pg.Pool, values: readonly unknown[], pipelined = false): Promise<Row[]> {
    return pipelined ? pipelineOf(pool).add(this, values) : pipelineOf(pool).alone(this, values);
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

/** At most this many executions share one exchange; a turn with more sends several, on as many connections. */
const MAX_PIPELINED = 32;

interface Pending {
  statement: PgStatement;
  values: readonly unknown[];
  resolve: (rows: Row[]) => void;
  reject: (err: unknown) => void;
}

const pipelines = new WeakMap<pg.Pool, Pipeline>();

function pipelineOf(pool: pg.Pool): Pipeline {
  let pipeline = pipelines.get(pool);
  if (!pipeline) {
    pipeline = new Pipeline(pool);
    pipelines.set(pool, pipeline);
  }
  return pipeline;
}

/**
 * The pipelined reads (`PrepareOptions.pipelined`, prepared.ts) of one pool asked for in one
 * event-loop turn, sent at the end of the turn's I/O (`setImmediate`) as one exchange on one pooled
 * connection: each execution's Bind, Describe when its result is not yet described there, Execute,
 * then one Sync, in one write (docs/design.md#prepared-queries). Under load a turn reads many requests off their sockets, and
 * their reads then cost one socket write to the server and one wake-up of it, instead of one each;
 * a lone request is sent at the end of its own turn, as before.
 *
 * Each read keeps its own answer: its rows, or its error. The executions between two Syncs share an
 * implicit transaction, so after an error the server skips the rest up to the Sync: the reads after
 * the failed one never ran, and are asked for again in the next exchange.
 */
class Pipeline {
  readonly #pool: pg.Pool;
  #queued: Pending[] = [];
  #scheduled = false;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  add(statement: PgStatement, values: readonly unknown[]): Promise<Row[]> {
    return new Promise((resolve, reject) => this.#enqueue([{ statement, values, resolve, reject }]));
  }

  /** One execution sent now, in an exchange of its own. */
  alone(statement: PgStatement, values: readonly unknown[]): Promise<Row[]> {
    return new Promise((resolve, reject) => this.#send([{ statement, values, resolve, reject }]));
  }

  #enqueue(items: Pending[]): void {
    this.#queued.push(...items);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const queued = this.#queued;
    this.#queued = [];
    for (let i = 0; i < queued.length; i += MAX_PIPELINED) this.#send(queued.slice(i, i + MAX_PIPELINED));
  };

  #send(items: Pending[]): void {
    // With a callback, the pool hands the exchange to a client, then calls back once it released it.
    const query = this.#pool.query as unknown as (q: Batch, cb: (err: Error | undefined) => void) => void;
    const batch = new Batch(items, (skipped) => this.#enqueue(skipped));
    try {
      query.call(this.#pool, batch, (err) => batch.ended(err));
    } catch (err) {
      batch.ended(err);
    }
  }
}

/**
 * One exchange of one or more executions: a node-postgres "submittable" (as pg-cursor is), handed
 * the connection when the client's turn comes, then the backend's messages until ReadyForQuery, which
 * are read in order. Each execution's answer ends with its CommandComplete; an
 * ErrorResponse is the answer of the execution it arrived in, and the ones after it were skipped.
 */
class Batch {
  callback?: (err: unknown) => void;
  readonly #items: Pending[];
  readonly #retry: (skipped: Pending[]) => void;
  /** The execution whose answer the server is sending. */
  #current = 0;
  #connection: Connection | null = null;
  /** Per execution: the statement was parsed in this exchange (the first of its executions here). */
  #parsed: boolean[] = [];
  /** Per execution: its messages were sent (false: a value could not be bound; it was answered at once). */
  #sent: boolean[] = [];
  #shape: Shape | undefined;
  #rows: Row[] = [];
  #failure: unknown = null;
  #done = false;

  constructor(items: Pending[], retry: (skipped: Pending[]) => void) {
    this.#items = items;
    this.#retry = retry;
  }

  /**
   * Read by the client on ParseComplete (the statement it records as parsed on the connection) and
   * on ErrorResponse: the statement of the execution being answered, which is the one parsed when
   * a ParseComplete arrives.
   */
  get name(): string {
    return this.#items[this.#current]?.statement.name ?? '';
  }

  get text(): string {
    return this.#items[this.#current]?.statement.text ?? '';
  }

  submit(connection: Connection): null {
    this.#connection = connection;
    const stream = connection.stream;
    stream.cork?.();
    try {
      const parsedHere = new Set<string>();
      for (const item of this.#items) {
        const { statement } = item;
        const previous = connection.parsedStatements[statement.name] ?? connection.submittedNamedStatements[statement.name];
        let parse = false;
        if (previous === undefined && !parsedHere.has(statement.name)) {
          parse = true;
          parsedHere.add(statement.name);
        }
        let values: unknown[];
        try {
          // Bound first, so that a value that cannot be bound sends nothing for its execution.
          values = item.values.map(prepareValue);
        } catch (err) {
          if (parse) parsedHere.delete(statement.name);
          item.reject(err);
          this.#parsed.push(false);
          this.#sent.push(false);
          continue;
        }
        if (parse) {
          connection.parse({ text: statement.text, name: statement.name });
          connection.submittedNamedStatements[statement.name] = statement.text;
        }
        connection.bind({ portal: '', statement: statement.name, values, binary: false, valueMapper: (v) => v });
        // Described where its result is not yet known on this connection (parsed here: never).
        if (parse || !statement.shapeOn(connection)) connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
        this.#parsed.push(parse);
        this.#sent.push(true);
      }
      connection.sync();
    } finally {
      stream.uncork?.();
    }
    this.#skipUnsent();
    this.#begin();
    return null;
  }

  /** Moves past executions that sent nothing (answered already). */
  #skipUnsent(): void {
    while (this.#current < this.#items.length && !this.#sent[this.#current]) this.#current++;
  }

  #begin(): void {
    const item = this.#items[this.#current];
    this.#shape = item && this.#connection ? item.statement.shapeOn(this.#connection) : undefined;
    this.#rows = [];
    this.#failure = null;
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    const item = this.#items[this.#current];
    if (item) this.#shape = item.statement.describe(this.#connection!, msg.fields);
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

  handleCommandComplete(): void {
    const item = this.#items[this.#current];
    if (item) {
      if (this.#failure !== null) item.reject(this.#failure);
      else item.resolve(this.#rows);
    }
    this.#current++;
    this.#skipUnsent();
    this.#begin();
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  /** An ErrorResponse (the answer of the current execution), or the connection lost. */
  handleError(err: unknown): void {
    this.#fail(err);
  }

  handleReadyForQuery(): void {
    // Every execution answered (an error would have ended the exchange already).
    this.#finish(null);
  }

  /** The pool's callback: the client is released. An error there (a connection that could not be had) fails what is left. */
  ended(err: unknown): void {
    if (err) this.#fail(err);
  }

  #fail(err: unknown): void {
    if (this.#done) return;
    const connection = this.#connection;
    const item = this.#items[this.#current];
    if (connection === null || !(err instanceof pg.DatabaseError)) {
      // Never sent, or the connection broke: nothing left can be known to have run; every read fails.
      for (let i = this.#current; i < this.#items.length; i++) if (this.#sent[i] !== false) this.#items[i].reject(err);
      this.#finish(err);
      return;
    }
    item?.reject(err);
    // The server skipped the rest up to the Sync: those statements it was sent to parse were not parsed.
    const skipped: Pending[] = [];
    for (let i = this.#current + 1; i < this.#items.length; i++) {
      if (!this.#sent[i]) continue;
      if (this.#parsed[i]) delete connection.submittedNamedStatements[this.#items[i].statement.name];
      skipped.push(this.#items[i]);
    }
    this.#finish(err);
    if (skipped.length > 0) this.#retry(skipped);
  }

  #finish(err: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.callback?.(err);
  }
}
