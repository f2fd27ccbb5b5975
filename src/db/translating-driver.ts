import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { translateDatabaseError } from './errors.ts';

const rethrow = (err: unknown): never => {
  throw translateDatabaseError(err);
};

/** Runs `step`, translating what it throws, synchronously (Kysely's SQLite driver throws before its promise) or not. */
async function translated<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    return rethrow(err);
  }
}

/**
 * Wraps a Kysely driver so every error a statement (or BEGIN/COMMIT) raises leaves the data layer
 * already translated (see errors.ts): one place, whatever query builder or raw SQL made it.
 */
class TranslatingDriver implements Driver {
  readonly #inner: Driver;
  /** The driver's own connection behind each wrapper we hand out (drivers keep private state on theirs). */
  readonly #connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
  /**
   * One wrapper per driver connection, made at its first checkout and handed out again at each later
   * one: the drivers hand out the same connection object for a pooled connection, and Kysely
   * instruments a connection it has not seen (its query log) by patching it. A new wrapper per
   * checkout made Kysely patch every one: about ten objects and closures per query that, under
   * load, outlived the young generation and piled up until the next full collection.
   */
  readonly #wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  #own(connection: DatabaseConnection): DatabaseConnection {
    return this.#connections.get(connection) ?? connection;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const own = await translated(() => this.#inner.acquireConnection());
    let wrapper = this.#wrappers.get(own);
    if (!wrapper) {
      wrapper = {
        executeQuery: <R>(query: CompiledQuery) => translated(() => own.executeQuery<R>(query)),
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => translatedStream(own.streamQuery<R>(query, chunkSize)),
      };
      this.#wrappers.set(own, wrapper);
      this.#connections.set(wrapper, own);
    }
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return translated(() => this.#inner.beginTransaction(this.#own(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.#inner.commitTransaction(this.#own(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.#inner.rollbackTransaction(this.#own(connection)));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await translated(async () => this.#inner.savepoint?.(this.#own(connection), name, compile));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await translated(async () => this.#inner.rollbackToSavepoint?.(this.#own(connection), name, compile));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await translated(async () => this.#inner.releaseSavepoint?.(this.#own(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(this.#own(connection));
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

async function* translatedStream<R>(stream: AsyncIterableIterator<QueryResult<R>>): AsyncIterableIterator<QueryResult<R>> {
  try {
    yield* stream;
  } catch (err) {
    rethrow(err);
  }
}

/** The same dialect, with its driver's errors translated. */
export function translatingDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TranslatingDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
