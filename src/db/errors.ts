/**
 * Driver errors translated once, by code, in the data layer (the translating driver applies it to
 * every statement; the pool's connection errors and the HTTP error handler ask the same function):
 *
 * - a broken constraint of the schema is a `ConstraintViolation` with its `kind`: the caller's data is
 *   at fault, and services test `isUniqueViolation(err)`, never an engine's message text;
 * - a database that cannot serve now (unreachable, busy, full, too slow) is a `DatabaseUnavailable`
 *   with its `reason`: answered `503 service_unavailable` with `Retry-After`, a retry may succeed;
 * - anything else (a bug) passes through untouched and is a 500.
 *
 * Every translation has a test (test/system/database-errors.test.ts): real errors from both engines
 * where this machine can raise them, constructed driver errors for the rest.
 */

export type ConstraintKind = 'unique' | 'foreign_key' | 'not_null' | 'check';
export type UnavailableReason = 'database_unreachable' | 'database_busy' | 'database_full' | 'database_timeout';

/** A statement broke a constraint of the schema: the caller's data, not the database, is at fault. */
export class ConstraintViolation extends Error {
  readonly kind: ConstraintKind;
  constructor(kind: ConstraintKind, cause: unknown) {
    super(`${kind.replace('_', ' ')} constraint violated: ${(cause as Error).message}`, { cause });
    this.name = 'ConstraintViolation';
    this.kind = kind;
  }
}

/** The database cannot serve right now (down, busy, full, too slow): retrying may succeed. */
export class DatabaseUnavailable extends Error {
  readonly reason: UnavailableReason;
  constructor(reason: UnavailableReason, cause: unknown) {
    super(`the database is unavailable (${reason}): ${(cause as Error).message}`, { cause });
    this.name = 'DatabaseUnavailable';
    this.reason = reason;
  }
}

type Translation = ConstraintKind | UnavailableReason;

/**
 * PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html) by exact
 * code; the classes below cover the rest of an unavailable server.
 */
const POSTGRES: Record<string, Translation> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  '23502': 'not_null',
  '23514': 'check',
  '40001': 'database_busy', // serialization_failure
  '40P01': 'database_busy', // deadlock_detected
  '55P03': 'database_busy', // lock_not_available
  '53100': 'database_full', // disk_full
  '57014': 'database_timeout', // query_canceled: statement_timeout
  '57P01': 'database_unreachable', // admin_shutdown
  '57P02': 'database_unreachable', // crash_shutdown
  '57P03': 'database_unreachable', // cannot_connect_now (starting up)
};

/** Whole SQLSTATE classes of an unavailable server: 08 connection exception, 53 insufficient resources, 58 system error. */
const POSTGRES_CLASSES: Record<string, UnavailableReason> = { '08': 'database_unreachable', '53': 'database_unreachable', '58': 'database_unreachable' };

/**
 * SQLite result codes (https://sqlite.org/rescode.html) as node:sqlite reports them in `errcode`:
 * extended codes first, then the primary code (its low byte).
 */
const SQLITE: Record<number, Translation> = {
  2067: 'unique', // SQLITE_CONSTRAINT_UNIQUE
  1555: 'unique', // SQLITE_CONSTRAINT_PRIMARYKEY
  787: 'foreign_key', // SQLITE_CONSTRAINT_FOREIGNKEY
  1299: 'not_null', // SQLITE_CONSTRAINT_NOTNULL
  275: 'check', // SQLITE_CONSTRAINT_CHECK
  5: 'database_busy', // SQLITE_BUSY, after the busy time-out
  6: 'database_busy', // SQLITE_LOCKED
  7: 'database_unreachable', // SQLITE_NOMEM
  10: 'database_unreachable', // SQLITE_IOERR
  13: 'database_full', // SQLITE_FULL: disk, or max_page_count
  14: 'database_unreachable', // SQLITE_CANTOPEN
};

/** Socket-level failures reaching the server (node-postgres surfaces Node's codes). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres and pg-pool errors that carry no code: a dropped or timed-out connection. */
const PG_MESSAGES: [string, UnavailableReason][] = [
  ['Connection terminated', 'database_unreachable'],
  ['timeout exceeded when trying to connect', 'database_timeout'],
  ['Client has encountered a connection error and is not queryable', 'database_unreachable'],
  ['Client was closed and is not queryable', 'database_unreachable'],
  ['Query read timeout', 'database_timeout'],
];

/** What a driver error means, by its code, or undefined when it is nothing we translate. */
function translationOf(err: { code?: unknown; errcode?: unknown; message?: unknown }): Translation | undefined {
  if (err.code === 'ERR_SQLITE_ERROR' && typeof err.errcode === 'number') return SQLITE[err.errcode] ?? SQLITE[err.errcode & 0xff];
  if (typeof err.code === 'string') {
    if (SOCKET_CODES.has(err.code)) return 'database_unreachable';
    // node-postgres errors carry the SQLSTATE in `code` (five characters).
    if (/^[0-9A-Z]{5}$/.test(err.code)) return POSTGRES[err.code] ?? POSTGRES_CLASSES[err.code.slice(0, 2)];
  }
  const message = typeof err.message === 'string' ? err.message : '';
  return PG_MESSAGES.find(([m]) => message.includes(m))?.[1];
}

const CONSTRAINTS = new Set<Translation>(['unique', 'foreign_key', 'not_null', 'check']);

/** The translated error for a driver error, or the error itself when it is nothing we translate. */
export function translateDatabaseError(err: unknown): unknown {
  if (!err || typeof err !== 'object' || err instanceof ConstraintViolation || err instanceof DatabaseUnavailable) return err;
  const translation = translationOf(err);
  if (translation === undefined) return err;
  return CONSTRAINTS.has(translation)
    ? new ConstraintViolation(translation as ConstraintKind, err)
    : new DatabaseUnavailable(translation as UnavailableReason, err);
}

/**
 * Why `err` means the database cannot serve now, or null. Takes translated errors and raw ones
 * alike (the pool reports broken idle connections itself), and looks through `cause`.
 */
export function databaseUnavailable(err: unknown, depth = 0): UnavailableReason | null {
  if (!err || typeof err !== 'object' || depth > 3) return null;
  const translated = translateDatabaseError(err);
  if (translated instanceof DatabaseUnavailable) return translated.reason;
  if (translated instanceof ConstraintViolation) return null;
  return databaseUnavailable((err as { cause?: unknown }).cause, depth + 1);
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof ConstraintViolation && err.kind === 'unique';
}
