import { sql, type OperationNode, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { ConstraintViolation } from '../../db/errors.ts';
import { everyColumn, prepareAccountRow, prepareQuery } from '../../db/prepared.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/** Every column, listed (a prepared statement never selects `*`: docs/design.md#prepared-queries). */
const KEY_COLUMNS = everyColumn<IdempotencyKeysTable>()([
  'id',
  'account_id',
  'key',
  'request_hash',
  'request_bytes_hash',
  'state',
  'response_status',
  'response_body',
  'location',
  'committed_at',
  'created_at',
  'expires_at',
]);

/** The unique constraint of (account_id, key) (migration 2026-11-21T0000_initial). */
const KEY_CONSTRAINT = 'idempotency_keys_account_key_uq';

/** Read on every write with a key and on every replay: a prepared query. */
const keyByName = prepareAccountRow('idempotency_keys', KEY_COLUMNS, 'key');

export async function findKey(db: Executor, accountId: number, key: string): Promise<IdempotencyRow | undefined> {
  return (await keyByName.rows(db, accountId, key))[0];
}

/**
 * Takes the key's transaction lock (engine.ts `tryTransactionLock`) and reads its record, in one
 * statement where the engine has such locks (PostgreSQL): `held` false when another transaction
 * holds the key. The read sees what had committed when the statement started; a duplicate that
 * commits and lets go of the lock within that statement is not seen, and is caught by the unique
 * key of the record the write stores at its end (docs/design.md#the-write-path).
 */
export async function holdAndFindKey(trx: Executor, accountId: number, key: string): Promise<{ held: boolean; row: IdempotencyRow | undefined }> {
  if (!engineOf(trx).transactionLock(accountId, key)) return { held: true, row: await findKey(trx, accountId, key) };
  const [{ held, ...record }] = await holdAndRead.rows(trx, accountId, key);
  return { held, row: record.id === null ? undefined : (record as IdempotencyRow) };
}

/** The lock and the read of holdAndFindKey (engines with transaction locks), built and compiled once. */
const holdAndRead = prepareQuery((db, accountId: number, key: string) => {
  const raw = sql<{ held: boolean } & Record<keyof IdempotencyRow, unknown>>`select ${engineOf(db).transactionLock(accountId, key)} as held, ${sql.join(
    KEY_COLUMNS.map((c) => sql.ref(`k.${c}`)),
  )} from (select 1) as one left join idempotency_keys as k on k.account_id = ${accountId}::bigint and k.key = ${key}`;
  return { compile: () => raw.compile(db) };
});

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

export type StoredRow = {
  account_id: number;
  key: string;
  request_hash: string;
  request_bytes_hash: string | null;
  response_status: number;
  response_body: string;
  location: string | null;
  created_at: number;
  expires_at: number;
};

/** A stored answer's record: done, its write committed when the answer was stored. */
export function answered(row: StoredRow) {
  return { ...row, state: 'done' as const, committed_at: row.created_at };
}

/** The values of a stored answer in the order the prepared inserts take them. */
export function storedArgs(r: StoredRow) {
  return [r.account_id, r.key, r.request_hash, r.request_bytes_hash, r.response_status, r.response_body, r.location, r.created_at, r.expires_at] as const;
}

/** insertResponse's statement when nothing goes with it and the commit is not folded in (SQLite's write path, a claim no write used): built and compiled once. */
const insertDone = prepareQuery(
  (
    db,
    account_id: number,
    key: string,
    request_hash: string,
    request_bytes_hash: string | null,
    response_status: number,
    response_body: string,
    location: string | null,
    created_at: number,
    expires_at: number,
  ) =>
    db
      .insertInto('idempotency_keys')
      .values(answered({ account_id, key, request_hash, request_bytes_hash, response_status, response_body, location, created_at, expires_at }))
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .returning(['id']),
);

/**
 * Stores a request's response under its key; false when the key already has a record. `alongside`,
 * a write of another table, runs in the same statement (PostgreSQL's data-modifying `WITH`: one
 * round trip for both), whether or not the key is stored: the caller rolls back when it is not.
 * `last`: the statement is its transaction's last, and where the engine can (engine.ts
 * `commitMarker`) the commit goes with it. A key already stored then fails the statement (the
 * transaction is aborted, nothing commits) instead of being passed over, and false is returned.
 */
export async function insertResponse(
  db: Executor,
  row: StoredRow,
  options: { alongside?: { toOperationNode(): OperationNode }; last?: boolean } = {},
): Promise<boolean> {
  const { alongside } = options;
  const marker = options.last ? engineOf(db).commitMarker : null;
  if (marker === null && !alongside) {
    return (await insertDone.rows(db, ...storedArgs(row))).length > 0;
  }
  const insert = (alongside ? db.with('alongside', () => alongside as never) : db).insertInto('idempotency_keys').values(answered(row));
  if (marker === null)
    return (
      (await insert
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .returning(['id'])
        .executeTakeFirst()) !== undefined
    );
  return storedUnlessKeyTaken(insert.modifyEnd(sql.raw(marker)).execute());
}

/**
 * True once `insert` (a stored answer's insert that fails on a key already stored) has run; false
 * when it failed on the key's unique constraint (the transaction is then aborted).
 */
export async function storedUnlessKeyTaken(insert: Promise<unknown>): Promise<boolean> {
  try {
    await insert;
    return true;
  } catch (err) {
    if (err instanceof ConstraintViolation && (err.cause as { constraint?: string } | undefined)?.constraint === KEY_CONSTRAINT) return false;
    throw err;
  }
}

export async function purgeExpiredKeys(db: Executor, now: number): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
