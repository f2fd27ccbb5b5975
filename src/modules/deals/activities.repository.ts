import type { Insertable, Selectable } from 'kysely';
import { countRows, pageWindow } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import { ACTIVITY_COLUMNS } from '../../db/columns.ts';
import type { DealActivitiesTable } from '../../db/schema.ts';

export type ActivityRow = Selectable<DealActivitiesTable>;

function ofDeal(db: Executor, accountId: number, dealId: number) {
  return db.selectFrom('deal_activities').where('account_id', '=', accountId).where('deal_id', '=', dealId);
}

export async function countActivities(db: Executor, accountId: number, dealId: number): Promise<number> {
  return countRows(db, ofDeal(db, accountId, dealId));
}

export function listActivities(
  db: Executor,
  accountId: number,
  dealId: number,
  sort: 'created_at' | 'id',
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<ActivityRow[]> {
  return pageWindow(ofDeal(db, accountId, dealId).select(ACTIVITY_COLUMNS).orderBy(sort, direction).orderBy('id', direction), limit, offset).execute();
}

export function findActivity(db: Executor, accountId: number, dealId: number, id: number): Promise<ActivityRow | undefined> {
  return ofDeal(db, accountId, dealId).select(ACTIVITY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function insertActivity(db: Executor, values: Insertable<DealActivitiesTable>): Promise<ActivityRow> {
  return db.insertInto('deal_activities').values(values).returning(ACTIVITY_COLUMNS).executeTakeFirstOrThrow();
}
