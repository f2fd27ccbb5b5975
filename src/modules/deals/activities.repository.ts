import { sql, type Insertable, type Selectable } from 'kysely';
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

/**
 * Inserts a timeline entry on the account's deal `values.deal_id`, with the deal's org, in one
 * statement (`INSERT … SELECT` from the deal: no read of its own); undefined when the account has
 * no such deal, and nothing is written.
 */
export function insertActivityOnDeal(db: Executor, values: Omit<Insertable<DealActivitiesTable>, 'org_id'>): Promise<ActivityRow | undefined> {
  const columns = Object.keys(values) as (keyof typeof values)[];
  return db
    .insertInto('deal_activities')
    .columns([...columns, 'org_id'])
    .expression(
      db
        .selectFrom('deals')
        .select([...columns.map((c) => sql.val(values[c]).as(c)), 'deals.org_id'])
        .where('deals.id', '=', values.deal_id)
        .where('deals.account_id', '=', values.account_id),
    )
    .returning(ACTIVITY_COLUMNS)
    .executeTakeFirst();
}
