import type { Db, Executor } from '../../db/database.ts';
import { iso, type Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import type { ApiKeyView, CreateApiKeyInput } from './api-keys.schemas.ts';
import { createApiKey } from './api-keys.service.ts';
import * as repo from './api-keys.repository.ts';
import type { Scope } from './scopes.ts';

type KeyRow = NonNullable<Awaited<ReturnType<typeof repo.findAccountKey>>>;

function toView(r: KeyRow): ApiKeyView {
  return {
    id: Number(r.id),
    name: r.name,
    prefix: r.prefix,
    scopes: (r.scopes === null ? ['*'] : JSON.parse(r.scopes)) as Scope[],
    rate_limit_per_minute: r.rate_limit_per_minute,
    created_at: iso(r.created_at),
    last_used_at: iso(r.last_used_at),
    revoked_at: iso(r.revoked_at),
  };
}

export function listKeys(db: Executor, accountId: number, includeRevoked: boolean, page: PageRequest): Promise<ListResult<ApiKeyView>> {
  return listPage(
    page,
    () => repo.countAccountKeys(db, accountId, includeRevoked),
    (limit, offset) => repo.listAccountKeys(db, accountId, includeRevoked, limit, offset),
    (rows) => rows.map(toView),
  );
}

export async function createKey(deps: { db: Db; clock: Clock }, accountId: number, input: CreateApiKeyInput): Promise<ApiKeyView & { secret: string }> {
  const created = await createApiKey(deps, { accountId, name: input.name, scopes: input.scopes, rateLimitPerMinute: input.rate_limit_per_minute ?? null });
  const row = await repo.findAccountKey(deps.db, accountId, created.id);
  return { ...toView(row!), secret: created.secret };
}

export async function revokeKey(deps: { db: Db; clock: Clock }, accountId: number, id: number): Promise<ApiKeyView> {
  const row = await repo.findAccountKey(deps.db, accountId, id);
  if (!row) throw notFound('api_key_not_found', id);
  if (row.revoked_at === null) await repo.revokeKey(deps.db, id, deps.clock.now());
  return toView((await repo.findAccountKey(deps.db, accountId, id))!);
}
