/**
 * Which driver errors mean "the database cannot serve right now" (answered 503
 * service_unavailable, retryable) rather than "this request is wrong" or "a bug" (500).
 * Classified by code, never by message text, except where node-postgres gives no code.
 */

/** Socket-level failures reaching the server (node-postgres surfaces Node's codes). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: class 08 (connection exception), 53 (insufficient
 * resources: too many connections, disk full, out of memory), 57P01-57P03 (shutting down, crashed,
 * starting up), 57014 (statement time-out or cancel), 58 (system I/O error).
 */
function postgresUnavailable(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('58') || code === '57P01' || code === '57P02' || code === '57P03' || code === '57014';
}

/** node-postgres and pg-pool errors that carry no code: a dropped or timed-out connection. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
];

/**
 * SQLite primary result codes (the low byte of node:sqlite's `errcode`): BUSY (5) after the busy
 * time-out, LOCKED (6), NOMEM (7), IOERR (10), FULL (13, disk or max_page_count), CANTOPEN (14).
 */
const SQLITE_UNAVAILABLE = new Set([5, 6, 7, 10, 13, 14]);

export type UnavailableReason = 'database_unreachable' | 'database_busy' | 'database_full' | 'database_timeout';

/** Why `err` means the database is unavailable, or null when it does not. Looks through `cause`. */
export function databaseUnavailable(err: unknown, depth = 0): UnavailableReason | null {
  if (!err || typeof err !== 'object' || depth > 3) return null;
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown; cause?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    if (!SQLITE_UNAVAILABLE.has(primary)) return null;
    return primary === 13 ? 'database_full' : primary === 5 || primary === 6 ? 'database_busy' : 'database_unreachable';
  }
  if (typeof e.code === 'string') {
    if (SOCKET_CODES.has(e.code)) return 'database_unreachable';
    if (/^[0-9A-Z]{5}$/.test(e.code) && postgresUnavailable(e.code)) {
      if (e.code === '57014') return 'database_timeout';
      if (e.code === '53100') return 'database_full';
      return 'database_unreachable';
    }
  }
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => (e.message as string).includes(m))) {
    return /timeout/i.test(e.message) ? 'database_timeout' : 'database_unreachable';
  }
  return databaseUnavailable(e.cause, depth + 1);
}
