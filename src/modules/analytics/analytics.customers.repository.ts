import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { inList } from '../../lib/sql.ts';
import { segments, type Period } from './analytics.period.ts';
import { rows, within } from './analytics.sql.ts';

export const RANKING_METRICS = ['deals_created', 'deals_won', 'activities', 'tickets_created', 'support_updates', 'open_deals', 'open_tickets'] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number];
/** Rankings that describe "now" rather than the period (no previous period, no change). */
export const NOW_METRICS: RankingMetric[] = ['open_deals', 'open_tickets'];
type PeriodMetric = Exclude<RankingMetric, 'open_deals' | 'open_tickets'>;

function source(metric: PeriodMetric, accountId: number, p: Period): RawBuilder<unknown> {
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
  }
}

/** Per-org monthly rollup facts (migration 2026-11-21T0160_analytics) of the period rankings. */
const MONTHLY: Partial<Record<RankingMetric, string>> = {
  deals_created: 'org_deal_created',
  deals_won: 'org_deal_won',
  activities: 'org_activity',
  tickets_created: 'org_ticket_created',
  support_updates: 'org_support_log',
};

/**
 * (org_id, n) rows counting records per org over the period, possibly several per org: the
 * per-org rollup `fact` (by month) and `${fact}_year` (by year) for the whole months and years
 * inside it, and `from` (a `table where …` over a period) for the days around them.
 */
export function perOrgCounts(accountId: number, p: Period, fact: string | undefined, from: (q: Period) => RawBuilder<unknown>): RawBuilder<unknown> {
  const raw = (q: Period) => sql`select org_id, count(*) as n from ${from(q)} group by org_id`;
  if (!fact) return raw(p);
  const seg = segments(p);
  // One bucket (a single year or month, dated by its first day): its rows are one per org, in org order (the key's), so no grouping.
  const rollup = (name: string, s: { a: number; b: number }, single: boolean) =>
    single
      ? sql`select dim as org_id, n from analytics_daily where account_id = ${accountId} and fact = ${name} and day = ${s.a}`
      : sql`select dim as org_id, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact = ${name} and day >= ${s.a} and day < ${s.b} group by dim`;
  const oneYear = (s: { a: number; b: number }) => s.b - s.a <= 366;
  const oneMonth = (s: { a: number; b: number }) => s.b - s.a <= 31;
  const parts = [...seg.years.map((s) => rollup(`${fact}_year`, s, oneYear(s))), ...seg.months.map((s) => rollup(fact, s, oneMonth(s))), ...seg.raw.map(raw)];
  return sql.join(parts, sql` union all `);
}

/** Open deals and open or pending tickets per org now, as kept by migration 2026-11-25T0310_analytics_kept. */
const OPEN_NOW: Partial<Record<RankingMetric, string>> = { open_deals: 'org_open_deal', open_tickets: 'org_open_ticket' };

/** (org_id, n) rows of the orgs that have open records of `metric` now (a kept count per org). */
export function openPerOrg(accountId: number, metric: 'open_deals' | 'open_tickets'): RawBuilder<unknown> {
  return sql`select dim as org_id, n from analytics_daily where account_id = ${accountId} and fact = ${OPEN_NOW[metric]} and day = 0 and n <> 0`;
}

function perOrg(metric: RankingMetric, accountId: number, p: Period): RawBuilder<unknown> {
  if (metric === 'open_deals' || metric === 'open_tickets') return openPerOrg(accountId, metric);
  return perOrgCounts(accountId, p, MONTHLY[metric], (q) => source(metric, accountId, q));
}

/** The top `limit` orgs by the metric (ties by org id), and how many orgs have a non-zero value. */
export function ranking(db: Executor, accountId: number, metric: RankingMetric, p: Period, limit: number) {
  return rows<{ org_id: number; n: number; orgs: number }>(
    db,
    sql`
    select org_id, sum(n) as n, count(*) over () as orgs from (${perOrg(metric, accountId, p)}) per_org
    group by org_id having sum(n) > 0 order by sum(n) desc, org_id asc limit ${limit}`,
  );
}

/** Orgs with an open (or pending) ticket and an open deal now (the kept counts, one pass): the first `limit` by open tickets, open deals, id; and their number. */
export function openSupportAndDeals(db: Executor, accountId: number, limit: number) {
  return rows<{ org_id: number; open_tickets: number; open_deals: number; orgs: number }>(
    db,
    sql`
    select org_id, open_tickets, open_deals, count(*) over () as orgs from (
      select dim as org_id, sum(case when fact = 'org_open_ticket' then n else 0 end) as open_tickets,
        sum(case when fact = 'org_open_deal' then n else 0 end) as open_deals
      from analytics_daily where account_id = ${accountId} and fact in ('org_open_deal', 'org_open_ticket') and day = 0
      group by dim
    ) per_org where open_tickets > 0 and open_deals > 0
    order by open_tickets desc, open_deals desc, org_id asc limit ${limit}`,
  );
}

export function orgNames(db: Executor, accountId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('orgs').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', inList(ids)).execute();
}
