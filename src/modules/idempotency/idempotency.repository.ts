import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { everyColumn, prepareAccountRow } from '../../db/prepared.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/** Every column, listed (a prepared statement never selects `*`: docs/design.md#prepared-queries). */
const KEY_COLUMNS = everyColumn<IdempotencyKeysTable>()([
  'id',
  'account_id',
  'key',
  'request_hash',
  'state',
  'response_status',
  'response_body',
  'location',
  'committed_at',
  'created_at',
  'expires_at',
]);

/** Read on every write with a key and on every replay: a prepared query. */
const keyByName = prepareAccountRow('idempotency_keys', KEY_COLUMNS, 'key');

export async function findKey(db: Executor, accountId: number, key: string): Promise<IdempotencyRow | undefined> {
  return (await keyByName.rows(db, accountId, key))[0];
}

/**
 * The key's record read now, where the engine reads it without waiting (SQLite on the pool, its
 * connection free: prepared.ts `rowsNow`), as `{ row }` (`row` undefined when there is none); null
 * where the read has to wait: call findKey.
 */
export function findKeyNow(db: Executor, accountId: number, key: string): { row: IdempotencyRow | undefined } | null {
  const rows = keyByName.rowsNow(db, accountId, key);
  return rows === null ? null : { row: rows[0] };
}

/**
 * Whether a record still answers for its key: not expired, and either a stored response or a
 * write that committed without one. Records of requests still "running" without a commit were
 * left by versions that claimed a key before the write (their process died before the write
 * committed): they answer for nothing, so a retry runs at once.
 */
export function isLive(row: IdempotencyRow, now: number): boolean {
  return row.expires_at > now && (row.state === 'done' || row.committed_at !== null);
}

export async function deleteKey(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('id', '=', id).execute();
}

/** Stores a request's response under its key; false when the key already has a record. */
export async function insertResponse(
  db: Executor,
  row: {
    account_id: number;
    key: string;
    request_hash: string;
    response_status: number;
    response_body: string;
    location: string | null;
    created_at: number;
    expires_at: number;
  },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...row, state: 'done', committed_at: row.created_at })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning(['id'])
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function purgeExpiredKeys(db: Executor, now: number): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
