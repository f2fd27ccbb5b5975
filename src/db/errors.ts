/**
 * Driver errors translated once, by code, in the data layer: services test `err instanceof
 * ConstraintViolation` and read `kind`, never an engine's message text. Every translation has a
 * test on both engines (test/system/database-errors.test.ts).
 */

export type ConstraintKind = 'unique' | 'foreign_key' | 'not_null' | 'check';

/** A statement broke a constraint of the schema: the caller's data, not the database, is at fault. */
export class ConstraintViolation extends Error {
  readonly kind: ConstraintKind;
  constructor(kind: ConstraintKind, cause: unknown) {
    super(`${kind.replace('_', ' ')} constraint violated: ${(cause as Error).message}`, { cause });
    this.name = 'ConstraintViolation';
    this.kind = kind;
  }
}

/** Another transaction holds what this one needs (deadlock, serialization failure, busy database): retrying may succeed. */
export class TransientDatabaseError extends Error {
  constructor(cause: unknown) {
    super(`the database is busy: ${(cause as Error).message}`, { cause });
    this.name = 'TransientDatabaseError';
  }
}

/** PostgreSQL SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const POSTGRES: Record<string, ConstraintKind | 'transient'> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  '23502': 'not_null',
  '23514': 'check',
  '40001': 'transient', // serialization_failure
  '40P01': 'transient', // deadlock_detected
  '55P03': 'transient', // lock_not_available
};

/** SQLite extended result codes (https://sqlite.org/rescode.html), as node:sqlite reports them in `errcode`. */
const SQLITE: Record<number, ConstraintKind | 'transient'> = {
  2067: 'unique', // SQLITE_CONSTRAINT_UNIQUE
  1555: 'unique', // SQLITE_CONSTRAINT_PRIMARYKEY
  787: 'foreign_key', // SQLITE_CONSTRAINT_FOREIGNKEY
  1299: 'not_null', // SQLITE_CONSTRAINT_NOTNULL
  275: 'check', // SQLITE_CONSTRAINT_CHECK
  5: 'transient', // SQLITE_BUSY
  6: 'transient', // SQLITE_LOCKED
};

function kindOf(err: { code?: unknown; errcode?: unknown }): ConstraintKind | 'transient' | undefined {
  if (err.code === 'ERR_SQLITE_ERROR' && typeof err.errcode === 'number') return SQLITE[err.errcode] ?? SQLITE[err.errcode & 0xff];
  // node-postgres errors carry the SQLSTATE in `code` (five characters).
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return POSTGRES[err.code];
  return undefined;
}

/** The translated error for a driver error, or the error itself when it is nothing we translate. */
export function translateDatabaseError(err: unknown): unknown {
  if (!err || typeof err !== 'object' || err instanceof ConstraintViolation || err instanceof TransientDatabaseError) return err;
  const kind = kindOf(err as { code?: unknown; errcode?: unknown });
  if (kind === undefined) return err;
  return kind === 'transient' ? new TransientDatabaseError(err) : new ConstraintViolation(kind, err);
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof ConstraintViolation && err.kind === 'unique';
}
