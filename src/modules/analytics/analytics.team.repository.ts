import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { CLOSED_DEAL, rows, within } from './analytics.sql.ts';

export interface TeamCounts {
  user_id: number | null;
  deals_created: number;
  deals_won: number;
  deals_lost: number;
  activities: number;
  tickets_closed: number;
  support_logs: number;
}

/**
 * Per-user facts of the period, one indexed pass per fact: deals created and won/lost (by
 * owner), deal activities (by author), tickets closed (by owner), support logs (by author).
 * The null user_id row holds records without a user (made by API keys, or unassigned).
 */
export function teamCounts(db: Executor, accountId: number, p: Period) {
  return rows<TeamCounts>(
    db,
    sql`
    select user_id, sum(dc) as deals_created, sum(dw) as deals_won, sum(dl) as deals_lost,
      sum(a) as activities, sum(tc) as tickets_closed, sum(sl) as support_logs
    from (
      select owner_user_id as user_id, count(*) as dc, 0 as dw, 0 as dl, 0 as a, 0 as tc, 0 as sl from deals
        where account_id = ${accountId} and ${within('created_at', p)} group by owner_user_id
      union all
      select owner_user_id, 0, sum(case when status = 'won' then 1 else 0 end), sum(case when status = 'lost' then 1 else 0 end), 0, 0, 0
        from deals where account_id = ${accountId} and ${within('closed_at', p)} and ${CLOSED_DEAL} group by owner_user_id
      union all
      select user_id, 0, 0, 0, count(*), 0, 0 from deal_activities
        where account_id = ${accountId} and ${within('created_at', p)} group by user_id
      union all
      select owner_user_id, 0, 0, 0, 0, count(*), 0 from tickets
        where account_id = ${accountId} and ${within('closed_at', p)} and status = 'closed' group by owner_user_id
      union all
      select author_user_id, 0, 0, 0, 0, 0, count(*) from support_logs
        where account_id = ${accountId} and ${within('created_at', p)} group by author_user_id
    ) facts group by user_id`,
  );
}

export function accountUsers(db: Executor, accountId: number) {
  return db.selectFrom('users').select(['id', 'display_name', 'is_active']).where('account_id', '=', accountId).orderBy('id', 'asc').execute();
}
