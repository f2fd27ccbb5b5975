import type { Db, Executor } from '../../db/database.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import { SEALED } from '../idempotency/idempotency.plugin.ts';
import { FINGERPRINT_SETTING, fingerprintOf, replaceFingerprint, shortFingerprint } from './fingerprint.ts';
import { SqliteAdapter } from 'kysely';
import { generateKey, nextKeyFile, promoteNextKey, writeKeyFile } from './key-file.ts';
import type { ResolvedKey } from './resolve.ts';

const BATCH = 500;

export interface RotationResult {
  webhook_endpoints: number;
  idempotency_responses: number;
  fingerprint: string;
  /** The key file now holding the new key (SQLite, generated key). */
  key_file: string | null;
  /** The new key (base64), printed when it lives in CUSTOPS_SECRET_KEY: the operator must store it. */
  secret_key: string | null;
}

async function reencryptEndpoints(trx: Executor, from: Buffer, to: Buffer): Promise<number> {
  let after = 0;
  let n = 0;
  for (;;) {
    const rows = await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'secret_encrypted', 'previous_secret_encrypted'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('webhook_endpoints')
        .set({
          secret_encrypted: encryptSecret(to, decryptSecret(from, row.secret_encrypted)),
          previous_secret_encrypted: row.previous_secret_encrypted === null ? null : encryptSecret(to, decryptSecret(from, row.previous_secret_encrypted)),
        })
        .where('id', '=', row.id)
        .execute();
    }
    n += rows.length;
    if (rows.length < BATCH) return n;
    after = Number(rows[rows.length - 1].id);
  }
}

async function reencryptResponses(trx: Executor, from: Buffer, to: Buffer): Promise<number> {
  let after = 0;
  let n = 0;
  for (;;) {
    const rows = await trx
      .selectFrom('idempotency_keys')
      .select(['id', 'response_body'])
      .where('id', '>', after)
      .where('response_body', 'like', `${SEALED}%`)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const plain = decryptSecret(from, row.response_body!.slice(SEALED.length));
      await trx
        .updateTable('idempotency_keys')
        .set({ response_body: SEALED + encryptSecret(to, plain) })
        .where('id', '=', row.id)
        .execute();
    }
    n += rows.length;
    if (rows.length < BATCH) return n;
    after = Number(rows[rows.length - 1].id);
  }
}

/**
 * `custops secret-key rotate`: re-encrypts every stored secret (webhook signing secrets, current and
 * previous, and sealed idempotent responses) under a new key, and records the new fingerprint, in one
 * transaction: it all moves or nothing does. With a key file, the new key is written durably to
 * `secret.key.next` first and moved into place after the commit; a crash in between is finished by the
 * next start (resolveSecretKey adopts the `.next` file when the database records its fingerprint).
 * With CUSTOPS_SECRET_KEY the new key is answered, for the operator to put in place of the old one.
 * Processes still running with the old key cannot read the secrets afterwards: stop them first.
 */
export async function rotateSecretKey(db: Db, current: ResolvedKey, now: number, newKey: Buffer = generateKey()): Promise<RotationResult> {
  if (current.source === 'memory') throw new Error('an in-memory database has no stored key to rotate');
  if (current.file) writeKeyFile(nextKeyFile(current.file), newKey, false);
  const fp = fingerprintOf(newKey);
  const counts = await db.transaction().execute(async (trx) => {
    // Locked (PostgreSQL; SQLite writers are serial already): a concurrent rotation waits, then finds another fingerprint.
    let query = trx.selectFrom('settings').select('value').where('name', '=', FINGERPRINT_SETTING);
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
    const stored = (await query.executeTakeFirst())?.value;
    if (stored !== fingerprintOf(current.key)) throw new Error('the database records another key than the one given: nothing was changed');
    const webhook_endpoints = await reencryptEndpoints(trx, current.key, newKey);
    const idempotency_responses = await reencryptResponses(trx, current.key, newKey);
    await replaceFingerprint(trx, fp, now);
    return { webhook_endpoints, idempotency_responses };
  });
  if (current.file) promoteNextKey(current.file);
  return {
    ...counts,
    fingerprint: shortFingerprint(fp),
    key_file: current.file,
    secret_key: current.source === 'env' ? newKey.toString('base64') : null,
  };
}
