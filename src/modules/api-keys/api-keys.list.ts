import type { Db } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import { findAccount } from '../accounts/accounts.repository.ts';
import { KeyInputError } from './api-keys.service.ts';

export interface ListedKey {
  id: number;
  name: string;
  /** The first characters of the secret, to tell keys apart; the secret itself is never stored. */
  prefix: string;
  scopes: string[];
  rate_limit_per_minute: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** `custops key list --account ID`: every key of the account, newest first, revoked ones included; no secrets. */
export async function listApiKeys(db: Db, accountId: number): Promise<{ data: ListedKey[] }> {
  if (!(await findAccount(db, accountId))) throw new KeyInputError(`no account with id ${accountId}`);
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'scopes', 'rate_limit_per_minute', 'created_at', 'last_used_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      prefix: r.prefix,
      // Keys made before scopes existed have none stored: full access.
      scopes: r.scopes === null ? ['*'] : (JSON.parse(r.scopes) as string[]),
      rate_limit_per_minute: r.rate_limit_per_minute === null ? null : Number(r.rate_limit_per_minute),
      created_at: iso(Number(r.created_at)),
      last_used_at: r.last_used_at === null ? null : iso(Number(r.last_used_at)),
      revoked_at: r.revoked_at === null ? null : iso(Number(r.revoked_at)),
    })),
  };
}
