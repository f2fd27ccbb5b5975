import { sql, type Selectable } from 'kysely';
import { countRows, pageWindow } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import { ACTIVITY_COLUMNS } from '../../db/columns.ts';
import { prepareQuery } from '../../db/prepared.ts';
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
 * Inserts a timeline entry on the account's deal `v.deal_id`, with the deal's org, in one
 * statement (`INSERT … SELECT` from the deal: no read of its own); undefined when the account has
 * no such deal, and nothing is written.
 */
export async function insertActivityOnDeal(db: Executor, v: NewActivity): Promise<ActivityRow | undefined> {
  const rows = await insertOnDeal.rows(
    db,
    v.account_id,
    v.deal_id,
    v.event_type,
    v.message,
    v.outcome,
    v.source_app,
    v.external_reference,
    v.metadata,
    v.user_id,
    v.created_at,
  );
  return rows[0];
}

/** A timeline entry's values but its org, which comes from its deal. */
type NewActivity = Pick<
  Selectable<DealActivitiesTable>,
  'account_id' | 'deal_id' | 'event_type' | 'message' | 'outcome' | 'source_app' | 'external_reference' | 'metadata' | 'user_id' | 'created_at'
>;

/** insertActivityOnDeal's statement, built and compiled once (every write of a timeline entry runs it). */
const insertOnDeal = prepareQuery(
  (
    db,
    account_id: NewActivity['account_id'],
    deal_id: NewActivity['deal_id'],
    event_type: NewActivity['event_type'],
    message: NewActivity['message'],
    outcome: NewActivity['outcome'],
    source_app: NewActivity['source_app'],
    external_reference: NewActivity['external_reference'],
    metadata: NewActivity['metadata'],
    user_id: NewActivity['user_id'],
    created_at: NewActivity['created_at'],
  ) => {
    const values = { account_id, deal_id, event_type, message, outcome, source_app, external_reference, metadata, user_id, created_at };
    const columns = Object.keys(values) as (keyof typeof values)[];
    return db
      .insertInto('deal_activities')
      .columns([...columns, 'org_id'])
      .expression(
        db
          .selectFrom('deals')
          .select([...columns.map((c) => sql.val(values[c]).as(c)), 'deals.org_id'])
          .where('deals.id', '=', deal_id)
          .where('deals.account_id', '=', account_id),
      )
      .returning(ACTIVITY_COLUMNS);
  },
);
