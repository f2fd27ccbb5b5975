import type { Executor } from '../../db/database.ts';
import type { OrgsTable } from '../../db/schema.ts';
import { ORG_COLUMNS } from '../../db/columns.ts';
import { accountRowById, prepareQuery } from '../../db/prepared.ts';
import { keptCount } from '../../lib/list-counts.ts';
import { countRows, inList, pageWindow } from '../../lib/sql.ts';
import { matchesText } from '../../lib/text-search.ts';
import { sql, type Selectable } from 'kysely';

export type OrgRow = Selectable<OrgsTable>;

export interface OrgFilter {
  q?: string;
}

function filtered(db: Executor, accountId: number, f: OrgFilter) {
  let query = db.selectFrom('orgs').where('orgs.account_id', '=', accountId);
  // Domains are kept as sent; their index holds lower(domain), which the match names alike (search_by_account migration).
  if (f.q) query = query.where(matchesText(db, 'orgs', accountId, ['orgs.name_lc', sql<string>`lower(${sql.ref('orgs.domain')})`], f.q));
  return query;
}

/** Without a search term the total is the kept count (list_counts). */
export async function countOrgs(db: Executor, accountId: number, f: OrgFilter): Promise<number> {
  if (!f.q) return keptCount(db, accountId, 'orgs', ['']);
  return countRows(db, filtered(db, accountId, f));
}

export function listOrgs(db: Executor, accountId: number, f: OrgFilter, limit: number, offset: number): Promise<OrgRow[]> {
  const ids = pageWindow(filtered(db, accountId, f).select('orgs.id').orderBy('created_at', 'desc').orderBy('id', 'desc'), limit, offset);
  return db.selectFrom('orgs').select(ORG_COLUMNS).where('orgs.id', 'in', ids).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The account's org by id, a prepared read (docs/design.md#prepared-queries). */
export const findOrg: (db: Executor, accountId: number, id: number) => Promise<OrgRow | undefined> = accountRowById('orgs', ORG_COLUMNS);

/** One org's external ids (the read of `GET /orgs/{id}`, by the org's index), prepared like the org's row. */
const externalIdsOfOne = prepareQuery(
  (db, accountId: number, orgId: number) =>
    db
      .selectFrom('org_external_ids')
      .select(['org_id', 'source_app', 'external_org_id'])
      .where('org_id', '=', orgId)
      .where('account_id', '=', accountId)
      .orderBy('id', 'asc'),
  { pipelined: true },
);

export function externalIdsOf(db: Executor, accountId: number, orgIds: number[]) {
  if (orgIds.length === 0) return Promise.resolve([]);
  if (orgIds.length === 1) return externalIdsOfOne.rows(db, accountId, orgIds[0]);
  return db
    .selectFrom('org_external_ids')
    .select(['org_id', 'source_app', 'external_org_id'])
    .where('account_id', '=', accountId)
    .where('org_id', 'in', inList(orgIds))
    .orderBy('id', 'asc')
    .execute();
}

export function findMapping(db: Executor, accountId: number, sourceApp: string, externalOrgId: string) {
  return db
    .selectFrom('org_external_ids')
    .select(['org_id'])
    .where('account_id', '=', accountId)
    .where('source_app', '=', sourceApp)
    .where('external_org_id', '=', externalOrgId)
    .executeTakeFirst();
}

/**
 * Links the pair unless it is linked already. ON CONFLICT DO NOTHING (not a caught error) so a
 * concurrent loser keeps its transaction usable on PostgreSQL; false means someone else holds the pair.
 */
export async function insertMappingIfAbsent(
  db: Executor,
  row: { account_id: number; org_id: number; source_app: string; external_org_id: string; created_at: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('org_external_ids')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'source_app', 'external_org_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function orgIdsByContactEmail(db: Executor, accountId: number, emailLc: string): Promise<number[]> {
  const rows = await db.selectFrom('contacts').select('org_id').distinct().where('account_id', '=', accountId).where('email_lc', '=', emailLc).execute();
  return rows.map((r) => Number(r.org_id));
}

export async function orgIdsByName(db: Executor, accountId: number, nameLc: string): Promise<number[]> {
  const rows = await db.selectFrom('orgs').select('id').where('account_id', '=', accountId).where('name_lc', '=', nameLc).execute();
  return rows.map((r) => Number(r.id));
}

/** Of the given orgs, those with a contact of this (lower-cased) name. */
export async function orgIdsWithContactName(db: Executor, accountId: number, orgIds: number[], nameLc: string): Promise<number[]> {
  if (orgIds.length === 0) return [];
  const rows = await db
    .selectFrom('contacts')
    .select('org_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('org_id', 'in', inList(orgIds))
    .where('name_lc', '=', nameLc)
    .execute();
  return rows.map((r) => Number(r.org_id));
}

export function insertOrg(
  db: Executor,
  row: { account_id: number; name: string; name_lc: string; domain: string | null; created_at: number; updated_at: number },
) {
  return db.insertInto('orgs').values(row).returning(ORG_COLUMNS).executeTakeFirstOrThrow();
}

export async function touchOrg(db: Executor, accountId: number, id: number, now: number): Promise<void> {
  await db.updateTable('orgs').set({ updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
