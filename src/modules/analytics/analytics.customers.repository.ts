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

/** Per-org rows of a period: `query` gives (org_id, n) rows, one per org when `onePerOrg`. */
export interface PerOrg {
  query: RawBuilder<unknown>;
  onePerOrg: boolean;
}

/**
 * (org_id, n) rows counting records per org over the period: the per-org rollup `fact` (by month)
 * and `${fact}_year` (by year) for the whole months and years inside it, and `from` (a `table where
 * …` over a period) for the days around them. A period that is one calendar year or month (the
 * `this_year`, `last_year`, `this_month` and `last_month` ranges) is one bucket of the rollup, whose
 * rows are one per org (the key is account, fact, day, org): `onePerOrg`.
 */
export function perOrgRows(accountId: number, p: Period, fact: string | undefined, from: (q: Period) => RawBuilder<unknown>): PerOrg {
  const raw = (q: Period) => sql`select org_id, count(*) as n from ${from(q)} group by org_id`;
  if (!fact) return { query: raw(p), onePerOrg: false };
  const seg = segments(p);
  // One bucket (a single year or month, dated by its first day): its rows are one per org, in org order (the key's), so no grouping.
  const rollup = (name: string, s: { a: number; b: number }, single: boolean) =>
    single
      ? sql`select dim as org_id, n from analytics_daily where account_id = ${accountId} and fact = ${name} and day = ${s.a}`
      : sql`select dim as org_id, sum(n) as n from analytics_daily
    where account_id = ${accountId} and fact = ${name} and day >= ${s.a} and day < ${s.b} group by dim`;
  const oneYear = (s: { a: number; b: number }) => s.b - s.a <= 366;
  const oneMonth = (s: { a: number; b: number }) => s.b - s.a <= 31;
  const years = seg.years.map((s) => ({ query: rollup(`${fact}_year`, s, oneYear(s)), single: oneYear(s) }));
  const months = seg.months.map((s) => ({ query: rollup(fact, s, oneMonth(s)), single: oneMonth(s) }));
  const parts = [...years, ...months, ...seg.raw.map((q) => ({ query: raw(q), single: false }))];
  return {
    query: sql.join(
      parts.map((x) => x.query),
      sql` union all `,
    ),
    onePerOrg: parts.length === 1 && parts[0].single,
  };
}

/** Open deals and open or pending tickets per org now, as kept by migration 2026-11-25T0310_analytics_kept. */
const OPEN_NOW: Partial<Record<RankingMetric, string>> = { open_deals: 'org_open_deal', open_tickets: 'org_open_ticket' };

/** (org_id, n) rows of the orgs that have open records of `metric` now (a kept count per org). */
export function openPerOrg(accountId: number, metric: 'open_deals' | 'open_tickets'): RawBuilder<unknown> {
  return sql`select dim as org_id, n from analytics_daily where account_id = ${accountId} and fact = ${OPEN_NOW[metric]} and day = 0 and n <> 0`;
}

function perOrg(metric: RankingMetric, accountId: number, p: Period): PerOrg {
  if (metric === 'open_deals' || metric === 'open_tickets') return { query: openPerOrg(accountId, metric), onePerOrg: true };
  return perOrgRows(accountId, p, MONTHLY[metric], (q) => source(metric, accountId, q));
}

/**
 * The top `limit` orgs by the metric (ties by org id), and how many orgs have a non-zero value.
 * Rows that are one per org (one bucket of the rollup, or the kept open counts) are ranked as they
 * are, and the orgs counted by a scalar subquery the engines run once: at 10,000 orgs that costs a
 * third of grouping the rows and counting them with a window over every group (docs/scaling.md#analytics-at-scale).
 */
export function ranking(db: Executor, accountId: number, metric: RankingMetric, p: Period, limit: number) {
  const per = perOrg(metric, accountId, p);
  return rows<{ org_id: number; n: number; orgs: number }>(
    db,
    per.onePerOrg
      ? sql`
    select org_id, n, (select count(*) from (${per.query}) counted where n > 0) as orgs from (${per.query}) per_org
    where n > 0 order by n desc, org_id asc limit ${limit}`
      : sql`
    select org_id, sum(n) as n, count(*) over () as orgs from (${per.query}) per_org
    group by org_id having sum(n) > 0 order by sum(n) desc, org_id asc limit ${limit}`,
  );
}

/**
 * Orgs with an open (or pending) ticket and an open deal now (the kept counts: one row per org and
 * fact, so a join of the two facts' rows): the first `limit` by open tickets, open deals, id; and
 * their number, by a scalar subquery run once. Grouping both facts' rows by org and counting with a
 * window cost PostgreSQL half as much again at 10,000 orgs (docs/scaling.md#analytics-at-scale).
 */
export function openSupportAndDeals(db: Executor, accountId: number, limit: number) {
  const both = sql`analytics_daily t join analytics_daily d on d.account_id = t.account_id and d.fact = 'org_open_deal' and d.day = 0 and d.dim = t.dim
    where t.account_id = ${accountId} and t.fact = 'org_open_ticket' and t.day = 0 and t.n > 0 and d.n > 0`;
  return rows<{ org_id: number; open_tickets: number; open_deals: number; orgs: number }>(
    db,
    sql`
    select t.dim as org_id, t.n as open_tickets, d.n as open_deals, (select count(*) from ${both}) as orgs from ${both}
    order by t.n desc, d.n desc, t.dim asc limit ${limit}`,
  );
}

export function orgNames(db: Executor, accountId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('orgs').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', inList(ids)).execute();
}
