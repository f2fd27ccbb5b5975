import type { Executor } from '../../db/database.ts';
import { countRows, newestFirstPage, pageWindow } from '../../lib/sql.ts';

export interface AudienceRow {
  id: number;
  name: string;
}

export function countAudiences(db: Executor, accountId: number): Promise<number> {
  return countRows(db, db.selectFrom('marketing_audiences').where('account_id', '=', accountId));
}

export function listAudiences(db: Executor, accountId: number, limit: number, offset: number): Promise<AudienceRow[]> {
  return newestFirstPage(db.selectFrom('marketing_audiences').select(['id', 'name']).where('account_id', '=', accountId), limit, offset).execute();
}

export function findAudience(db: Executor, accountId: number, id: number): Promise<AudienceRow | undefined> {
  return db.selectFrom('marketing_audiences').select(['id', 'name']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function findAudienceByName(db: Executor, accountId: number, name: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('marketing_audiences').select('id').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
}

export function insertAudience(db: Executor, row: { account_id: number; name: string; created_at: number }): Promise<AudienceRow> {
  return db.insertInto('marketing_audiences').values(row).returning(['id', 'name']).executeTakeFirstOrThrow();
}

/** The ids among `ids` that are audiences of the account. */
export async function existingAudienceIds(db: Executor, accountId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('marketing_audiences').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

export function countMemberships(db: Executor, accountId: number, contactId: number): Promise<number> {
  return countRows(db, db.selectFrom('contact_audiences').where('account_id', '=', accountId).where('contact_id', '=', contactId));
}

/** The contact's audiences, newest audience first (the list convention). */
export function membershipsOf(db: Executor, accountId: number, contactId: number, limit: number, offset: number): Promise<AudienceRow[]> {
  return pageWindow(
    db
      .selectFrom('contact_audiences as ca')
      .innerJoin('marketing_audiences as a', 'a.id', 'ca.audience_id')
      .select(['a.id', 'a.name'])
      .where('ca.account_id', '=', accountId)
      .where('a.account_id', '=', accountId)
      .where('ca.contact_id', '=', contactId)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc'),
    limit,
    offset,
  ).execute();
}

export async function memberAudienceIds(db: Executor, accountId: number, contactId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('contact_audiences').select('audience_id').where('account_id', '=', accountId).where('contact_id', '=', contactId).execute();
  return new Set(rows.map((r) => Number(r.audience_id)));
}

export async function addMemberships(db: Executor, accountId: number, contactId: number, audienceIds: number[], now: number): Promise<void> {
  if (audienceIds.length === 0) return;
  await db
    .insertInto('contact_audiences')
    .values(audienceIds.map((audience_id) => ({ account_id: accountId, contact_id: contactId, audience_id, created_at: now })))
    .execute();
}

/** Removes the contact from `audienceIds`, or from every audience when `audienceIds` is null. */
export async function removeMemberships(db: Executor, accountId: number, contactId: number, audienceIds: number[] | null): Promise<void> {
  if (audienceIds !== null && audienceIds.length === 0) return;
  let query = db.deleteFrom('contact_audiences').where('account_id', '=', accountId).where('contact_id', '=', contactId);
  if (audienceIds !== null) query = query.where('audience_id', 'in', audienceIds);
  await query.execute();
}
