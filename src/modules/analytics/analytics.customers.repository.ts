import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { OPEN_DEAL, OPEN_TICKET, rows, within } from './analytics.sql.ts';

export const RANKING_METRICS = ['deals_created', 'deals_won', 'activities', 'tickets_created', 'support_updates', 'open_deals', 'open_tickets'] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number];
/** Rankings that describe "now" rather than the period (no previous period, no change). */
export const NOW_METRICS: RankingMetric[] = ['open_deals', 'open_tickets'];

function source(metric: RankingMetric, accountId: number, p: Period): RawBuilder<unknown> {
  switch (metric) {
    case 'deals_created':
      return sql`deals where account_id = ${accountId} and ${within('created_at', p)}`;
    case 'deals_won':
      return sql`deals where account_id = ${accountId} and ${within('closed_at', p)} and status = 'won'`;
    case 'activities':
      return sql`deal_activities where account_id = ${accountId} and ${within('created_at', p)}`;
    case 'tickets_created':
      return sql`tickets where account_id = ${accountId} and ${within('created_at', p)}`;
    case 'support_updates':
      return sql`support_logs where account_id = ${accountId} and ${within('created_at', p)}`;
    case 'open_deals':
      return sql`deals where account_id = ${accountId} and ${OPEN_DEAL}`;
    case 'open_tickets':
      return sql`tickets where account_id = ${accountId} and ${OPEN_TICKET}`;
  }
}

/** The top `limit` orgs by the metric (ties by org id), and how many orgs have a non-zero value. */
export function ranking(db: Executor, accountId: number, metric: RankingMetric, p: Period, limit: number) {
  return rows<{ org_id: number; n: number; orgs: number }>(db, sql`
    select org_id, count(*) as n, count(*) over () as orgs from ${source(metric, accountId, p)}
    group by org_id order by count(*) desc, org_id asc limit ${limit}`);
}

/** Orgs with an open (or pending) ticket and an open deal now: the first `limit` by open tickets, open deals, id; and their number. */
export function openSupportAndDeals(db: Executor, accountId: number, limit: number) {
  return rows<{ org_id: number; open_tickets: number; open_deals: number; orgs: number }>(db, sql`
    select t.org_id, t.n as open_tickets, d.n as open_deals, count(*) over () as orgs
    from (select org_id, count(*) as n from tickets where account_id = ${accountId} and ${OPEN_TICKET} group by org_id) t
    join (select org_id, count(*) as n from deals where account_id = ${accountId} and ${OPEN_DEAL} group by org_id) d
      on d.org_id = t.org_id
    order by t.n desc, d.n desc, t.org_id asc limit ${limit}`);
}

export function orgNames(db: Executor, accountId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('orgs').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
}
