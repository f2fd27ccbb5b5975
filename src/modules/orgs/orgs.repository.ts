import type { Executor } from '../../db/database.ts';
import type { OrgsTable } from '../../db/schema.ts';
import { containsText } from '../../lib/sql.ts';
import type { Selectable } from 'kysely';

export type OrgRow = Selectable<OrgsTable>;

export interface OrgFilter {
  q?: string;
}

function filtered(db: Executor, accountId: number, f: OrgFilter) {
  let query = db.selectFrom('orgs').where('account_id', '=', accountId);
  if (f.q) query = query.where((eb) => eb.or([containsText('name_lc', f.q!), containsText('domain', f.q!)]));
  return query;
}

export async function countOrgs(db: Executor, accountId: number, f: OrgFilter): Promise<number> {
  const r = await filtered(db, accountId, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

export function listOrgs(db: Executor, accountId: number, f: OrgFilter, limit: number, offset: number): Promise<OrgRow[]> {
  return filtered(db, accountId, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export function findOrg(db: Executor, accountId: number, id: number): Promise<OrgRow | undefined> {
  return db.selectFrom('orgs').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function externalIdsOf(db: Executor, accountId: number, orgIds: number[]) {
  if (orgIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('org_external_ids')
    .select(['org_id', 'source_app', 'external_org_id'])
    .where('account_id', '=', accountId)
    .where('org_id', 'in', orgIds)
    .orderBy('id', 'asc')
    .execute();
}
