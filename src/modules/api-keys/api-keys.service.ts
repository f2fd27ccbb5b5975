import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { apiKeyPrefix, generateApiKeySecret, sha256Hex } from '../../lib/crypto.ts';
import { isScope, type Scope } from './scopes.ts';
import * as repo from './api-keys.repository.ts';
import { findAccount } from '../accounts/accounts.repository.ts';

export interface CreatedKey {
  id: number;
  name: string;
  scopes: Scope[];
  rate_limit_per_minute: number | null;
  secret: string;
}

export class KeyInputError extends Error {}

export function parseScopeList(text: string | undefined): Scope[] {
  if (text === undefined) return ['*'];
  const list = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  // An empty list is a mistake, not a request for full access: full access is asked for by omitting --scopes or with "*".
  if (list.length === 0) throw new KeyInputError('--scopes is empty; omit it (or pass "*") for a full-access key');
  const bad = list.filter((s) => !isScope(s));
  if (bad.length) throw new KeyInputError(`unknown scope(s): ${bad.join(', ')}`);
  return list as Scope[];
}

export async function createApiKey(
  deps: { db: Db; clock: Clock },
  input: { accountId: number; name: string; scopes: Scope[]; rateLimitPerMinute: number | null },
): Promise<CreatedKey> {
  if (!(await findAccount(deps.db, input.accountId))) throw new KeyInputError(`no account with id ${input.accountId}`);
  const secret = generateApiKeySecret();
  const { id } = await repo.insertKey(deps.db, {
    account_id: input.accountId,
    name: input.name,
    prefix: apiKeyPrefix(secret),
    secret_hash: sha256Hex(secret),
    scopes: JSON.stringify(input.scopes),
    rate_limit_per_minute: input.rateLimitPerMinute,
    created_at: deps.clock.now(),
  });
  return { id, name: input.name, scopes: input.scopes, rate_limit_per_minute: input.rateLimitPerMinute, secret };
}

export async function revokeApiKey(deps: { db: Db; clock: Clock }, id: number): Promise<{ id: number; revoked: boolean }> {
  const key = await repo.findKeyById(deps.db, id);
  if (!key) throw new KeyInputError(`no API key with id ${id}`);
  const revoked = await repo.revokeKey(deps.db, id, deps.clock.now());
  return { id, revoked: revoked || key.revoked_at !== null };
}
