import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { rows, weekBucket, within } from './analytics.sql.ts';

/** Timeline activities of the period per kind, and support logs of the period (kind `support_log`). */
export function activityByKind(db: Executor, accountId: number, p: Period) {
  return rows<{ kind: string; n: number }>(
    db,
    sql`
    select event_type as kind, count(*) as n from deal_activities
      where account_id = ${accountId} and ${within('created_at', p)} group by event_type
    union all
    select 'support_log', count(*) from support_logs
      where account_id = ${accountId} and ${within('created_at', p)}`,
  );
}

export interface WeekCounts {
  week: number;
  deals_created: number;
  deals_won: number;
  deals_lost: number;
  activities: number;
  tickets_created: number;
  tickets_closed: number;
  support_logs: number;
}

/** Facts of the period per ISO week bucket (weeks since Monday 1970-01-05); weeks without facts are absent. */
export function weeklyCounts(db: Executor, accountId: number, p: Period) {
  const wk = (c: string) => weekBucket(c);
  return rows<WeekCounts>(
    db,
    sql`
    select week, sum(dc) as deals_created, sum(dw) as deals_won, sum(dl) as deals_lost, sum(a) as activities,
      sum(tcr) as tickets_created, sum(tcl) as tickets_closed, sum(sl) as support_logs
    from (
      select ${wk('created_at')} as week, count(*) as dc, 0 as dw, 0 as dl, 0 as a, 0 as tcr, 0 as tcl, 0 as sl from deals
        where account_id = ${accountId} and ${within('created_at', p)} group by 1
      union all
      select ${wk('closed_at')}, 0, sum(case when status = 'won' then 1 else 0 end), sum(case when status = 'lost' then 1 else 0 end), 0, 0, 0, 0
        from deals where account_id = ${accountId} and ${within('closed_at', p)} and status in ('won', 'lost') group by 1
      union all
      select ${wk('created_at')}, 0, 0, 0, count(*), 0, 0, 0 from deal_activities
        where account_id = ${accountId} and ${within('created_at', p)} group by 1
      union all
      select ${wk('created_at')}, 0, 0, 0, 0, count(*), 0, 0 from tickets
        where account_id = ${accountId} and ${within('created_at', p)} group by 1
      union all
      select ${wk('closed_at')}, 0, 0, 0, 0, 0, count(*), 0 from tickets
        where account_id = ${accountId} and ${within('closed_at', p)} and status = 'closed' group by 1
      union all
      select ${wk('created_at')}, 0, 0, 0, 0, 0, 0, count(*) from support_logs
        where account_id = ${accountId} and ${within('created_at', p)} group by 1
    ) facts group by week`,
  );
}
