import { keptCount } from '../../lib/list-counts.js';
import { countRows } from '../../lib/sql.js';
import { matchesText } from '../../lib/text-search.js';
function filtered(db, accountId, f) {
    let query = db.selectFrom('orgs').where('orgs.account_id', '=', accountId);
    if (f.q)
        query = query.where(matchesText(db, 'orgs', ['orgs.name_lc', 'orgs.domain'], f.q));
    return query;
}
/** Without a search term the total is the kept count (list_counts). */
export async function countOrgs(db, accountId, f) {
    if (!f.q)
        return keptCount(db, accountId, 'orgs', ['']);
    return countRows(db, filtered(db, accountId, f));
}
export function listOrgs(db, accountId, f, limit, offset) {
    const ids = filtered(db, accountId, f).select('orgs.id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
    return db.selectFrom('orgs').selectAll().where('orgs.id', 'in', ids).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
export function findOrg(db, accountId, id) {
    return db.selectFrom('orgs').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}
export function externalIdsOf(db, accountId, orgIds) {
    if (orgIds.length === 0)
        return Promise.resolve([]);
    return db
        .selectFrom('org_external_ids')
        .select(['org_id', 'source_app', 'external_org_id'])
        .where('account_id', '=', accountId)
        .where('org_id', 'in', orgIds)
        .orderBy('id', 'asc')
        .execute();
}
export function findMapping(db, accountId, sourceApp, externalOrgId) {
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
export async function insertMappingIfAbsent(db, row) {
    const inserted = await db
        .insertInto('org_external_ids')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'source_app', 'external_org_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
    return inserted !== undefined;
}
export async function orgIdsByContactEmail(db, accountId, emailLc) {
    const rows = await db.selectFrom('contacts').select('org_id').distinct().where('account_id', '=', accountId).where('email_lc', '=', emailLc).execute();
    return rows.map((r) => Number(r.org_id));
}
export async function orgIdsByName(db, accountId, nameLc) {
    const rows = await db.selectFrom('orgs').select('id').where('account_id', '=', accountId).where('name_lc', '=', nameLc).execute();
    return rows.map((r) => Number(r.id));
}
/** Of the given orgs, those with a contact of this (lower-cased) name. */
export async function orgIdsWithContactName(db, accountId, orgIds, nameLc) {
    if (orgIds.length === 0)
        return [];
    const rows = await db
        .selectFrom('contacts')
        .select('org_id')
        .distinct()
        .where('account_id', '=', accountId)
        .where('org_id', 'in', orgIds)
        .where('name_lc', '=', nameLc)
        .execute();
    return rows.map((r) => Number(r.org_id));
}
export function insertOrg(db, row) {
    return db.insertInto('orgs').values(row).returningAll().executeTakeFirstOrThrow();
}
export async function touchOrg(db, accountId, id, now) {
    await db.updateTable('orgs').set({ updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
