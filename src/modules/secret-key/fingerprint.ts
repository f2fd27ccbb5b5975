import { createHash } from 'node:crypto';
import type { Db, Executor } from '../../db/database.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { SEALED } from '../idempotency/idempotency.plugin.ts';

export const FINGERPRINT_SETTING = 'secret_key_fingerprint';

/**
 * A key's fingerprint: SHA-256 over a label and the 32 key bytes. The key is random, so the hash
 * reveals nothing usable; it only tells one key from another.
 */
export function fingerprintOf(key: Buffer): string {
  return createHash('sha256').update('custops secret-key fingerprint v1\0').update(key).digest('hex');
}

/** The first 16 hex digits, as messages show it. */
export const shortFingerprint = (fp: string) => fp.slice(0, 16);

export async function readFingerprint(db: Executor): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', FINGERPRINT_SETTING).executeTakeFirst();
  return row?.value ?? null;
}

/** Records the fingerprint unless one is there already (two processes may start at once); answers the one recorded. */
export async function recordFingerprint(db: Db, fp: string, now: number): Promise<string> {
  await db
    .insertInto('settings')
    .values({ name: FINGERPRINT_SETTING, value: fp, updated_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await readFingerprint(db))!;
}

export async function replaceFingerprint(trx: Executor, fp: string, now: number): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ name: FINGERPRINT_SETTING, value: fp, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: fp, updated_at: now }))
    .execute();
}

/** One stored ciphertext, if the database holds any: a webhook signing secret or a sealed idempotent response. */
export async function sampleCiphertext(db: Executor): Promise<string | null> {
  const endpoint = await db.selectFrom('webhook_endpoints').select('secret_encrypted').limit(1).executeTakeFirst();
  if (endpoint) return endpoint.secret_encrypted;
  const stored = await db.selectFrom('idempotency_keys').select('response_body').where('response_body', 'like', `${SEALED}%`).limit(1).executeTakeFirst();
  return stored?.response_body ? stored.response_body.slice(SEALED.length) : null;
}

export function opens(key: Buffer, ciphertext: string): boolean {
  try {
    decryptSecret(key, ciphertext);
    return true;
  } catch {
    return false;
  }
}
