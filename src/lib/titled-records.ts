import { sql, type Expression, type SqlBool } from 'kysely';
import { matchesText } from './text-search.ts';
import type { Executor } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';

/** Deals and tickets: titled records of an org, with an owner and a contact, listed with the same filters and sorts. */
export type TitledTable = 'deals' | 'tickets';

export interface TitledFilter {
  orgId?: number;
  ownerUserId?: number;
  contactId?: number;
  q?: string;
  createdFrom?: number | null;
  createdTo?: number | null;
}

/** The filters deals and tickets share, as conditions on `table`'s columns of rows of `accountId` (none when no filter is set). */
export function titledFilters(db: Executor, table: TitledTable, accountId: number, f: TitledFilter): Expression<SqlBool>[] {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const conditions: Expression<SqlBool>[] = [];
  if (f.orgId !== undefined) conditions.push(sql<SqlBool>`${column('org_id')} = ${f.orgId}`);
  if (f.ownerUserId !== undefined) conditions.push(sql<SqlBool>`${column('owner_user_id')} = ${f.ownerUserId}`);
  if (f.contactId !== undefined) conditions.push(sql<SqlBool>`${column('contact_id')} = ${f.contactId}`);
  if (f.q) conditions.push(matchesTitle(db, table, accountId, f.q));
  if (f.createdFrom != null) conditions.push(sql<SqlBool>`${column('created_at')} >= ${f.createdFrom}`);
  if (f.createdTo != null) conditions.push(sql<SqlBool>`${column('created_at')} <= ${f.createdTo}`);
  return conditions;
}

function matchesTitle(db: Executor, table: TitledTable, accountId: number, q: string): Expression<SqlBool> {
  return matchesText(db, table, accountId, [`${table}.title_lc`], q);
}

/** No filter set: the list (or its status buckets) has a kept count (list_counts) instead of a count of rows. */
export function noFilterSet(filters: object): boolean {
  return Object.values(filters).every((v) => v === undefined || v === null || v === '');
}

/** The sort key: text sorts compare code points on both engines (case-insensitively for titles). */
export function titledSortKey(db: Executor, table: TitledTable, sort: string) {
  if (sort === 'title') return engineOf(db).codePointOrder(`${table}.title_lc`);
  // Statuses are lower-case ASCII words: every collation orders them by code point, and the plain index serves it.
  return sql.ref(`${table}.${sort}`);
}
