import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { DAY_MS, type Period } from './analytics.period.ts';
import { wholeDays } from './analytics.rollup.repository.ts';
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

/** Per-org monthly rollup facts (migration 2026-11-21T0160_analytics) of the period rankings. */
const MONTHLY: Partial<Record<RankingMetric, string>> = {
  deals_created: 'org_deal_created', deals_won: 'org_deal_won', activities: 'org_activity',
  tickets_created: 'org_ticket_created', support_updates: 'org_support_log',
};

/**
 * The whole UTC calendar months inside a whole-day period, as [first day, end day) in days
 * since 1970-01-01, or null when there is none: the per-org rollup answers those months and
 * the records answer the days before and after them.
 */
export function monthSpan(p: Period): { a: number; b: number } | null {
  if (!wholeDays(p)) return null;
  const f = new Date(p.from);
  const t = new Date(p.to);
  const a = f.getUTCDate() === 1 ? p.from : Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1);
  const b = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1);
  return a < b ? { a: a / DAY_MS, b: b / DAY_MS } : null;
}

/**
 * (org_id, n) rows counting records per org over the period, possibly several per org: the
 * monthly rollup `fact` for the whole months inside it, and `from` (a `table where …` over a
 * period) for the days around them, or for all of it.
 */
export function perOrgCounts(accountId: number, p: Period, fact: string | undefined, from: (q: Period) => RawBuilder<unknown>): RawBuilder<unknown> {
  const raw = (q: Period) => sql`select org_id, count(*) as n from ${from(q)} group by org_id`;
  const span = fact ? monthSpan(p) : null;
  if (!span) return raw(p);
  const parts = [sql`select dim as org_id, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact = ${fact} and day >= ${span.a} and day < ${span.b} group by dim`];
  if (p.from < span.a * DAY_MS) parts.push(raw({ from: p.from, to: span.a * DAY_MS }));
  if (span.b * DAY_MS < p.to) parts.push(raw({ from: span.b * DAY_MS, to: p.to }));
  return sql.join(parts, sql` union all `);
}

function perOrg(metric: RankingMetric, accountId: number, p: Period): RawBuilder<unknown> {
  return perOrgCounts(accountId, p, MONTHLY[metric], (q) => source(metric, accountId, q));
}

/** The top `limit` orgs by the metric (ties by org id), and how many orgs have a non-zero value. */
export function ranking(db: Executor, accountId: number, metric: RankingMetric, p: Period, limit: number) {
  return rows<{ org_id: number; n: number; orgs: number }>(db, sql`
    select org_id, sum(n) as n, count(*) over () as orgs from (${perOrg(metric, accountId, p)}) per_org
    group by org_id having sum(n) > 0 order by sum(n) desc, org_id asc limit ${limit}`);
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
