import type { Executor } from '../../db/database.ts';
import { changesOf, isoWeekLabel, weekIndex, weeksOf, type Period } from './analytics.period.ts';
import { buildReport, sumRows, type ReportContext } from './analytics.report.ts';
import { activityByKind, weeklyCounts, type WeekCounts } from './analytics.activity.repository.ts';
import * as customers from './analytics.customers.repository.ts';
import { accountUsers, teamCounts, type TeamCounts } from './analytics.team.repository.ts';
import * as rollup from './analytics.rollup.repository.ts';
import { ACTIVITY_KINDS, CUSTOMER_TOTALS, TEAM_TOTALS, TREND_FACTS } from './analytics.schemas.ts';
import { nullableId, num } from './analytics.sql.ts';

const BY_CUSTOMER_LIMIT = 50;
const RANKING_LIMIT = 10;

export async function orgNameMap(db: Executor, accountId: number, ids: number[]) {
  return new Map((await customers.orgNames(db, accountId, [...new Set(ids)])).map((o) => [Number(o.id), o.name]));
}

const TEAM_FACTS = ['deal_created', 'deal_won_owner', 'deal_lost_owner', 'activity_user', 'ticket_closed', 'support_log'] as const;

async function teamRows(db: Executor, accountId: number, p: Period): Promise<TeamCounts[]> {
  if (!rollup.wholeDays(p)) return teamCounts(db, accountId, p);
  return (await rollup.byDimension(db, accountId, p, TEAM_FACTS)).map((r) => ({
    user_id: Number(r.dim) === 0 ? null : Number(r.dim),
    ...(Object.fromEntries(TEAM_TOTALS.map((k, i) => [k, r[TEAM_FACTS[i]]])) as Omit<TeamCounts, 'user_id'>),
  }));
}

export async function teamReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const users = await accountUsers(db, accountId);
  return buildReport(
    ctx,
    async (p) => {
      const rows = await teamRows(db, accountId, p);
      const byUser = new Map(rows.map((r) => [nullableId(r.user_id), r]));
      const facts = (r: TeamCounts | undefined) =>
        Object.fromEntries(TEAM_TOTALS.map((k) => [k, r ? num(r[k]) : 0])) as Record<(typeof TEAM_TOTALS)[number], number>;
      const named = users.map((u) => ({
        user_id: Number(u.id),
        display_name: u.display_name as string | null,
        is_active: Boolean(u.is_active) as boolean | null,
        ...facts(byUser.get(Number(u.id))),
      }));
      // Records without a user get their own last row, so that the rows sum to totals.
      const none = facts(byUser.get(null));
      const unattributed = TEAM_TOTALS.some((k) => none[k] !== 0) ? [{ user_id: null, display_name: null, is_active: null, ...none }] : [];
      return { users: [...named, ...unattributed], totals: sumRows(rows as never, TEAM_TOTALS) };
    },
    async () => ({}),
    (c, p) => ({ totals: changesOf(c.totals, p.totals) }),
  );
}

export async function customersReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const periodRankings = customers.RANKING_METRICS.filter((m) => !customers.NOW_METRICS.includes(m));
  const withNames = async (lists: { org_id: number; n: number }[][]) => {
    const names = await orgNameMap(
      db,
      accountId,
      lists.flat().map((r) => Number(r.org_id)),
    );
    return lists.map((l) => l.map((r) => ({ org_id: Number(r.org_id), name: names.get(Number(r.org_id)) ?? '', value: num(r.n) })));
  };
  return buildReport(
    ctx,
    async (p) => {
      const lists = await Promise.all(periodRankings.map((m) => customers.ranking(db, accountId, m, p, RANKING_LIMIT)));
      const named = await withNames(lists);
      return {
        rankings: Object.fromEntries(periodRankings.map((m, i) => [m, named[i]])),
        totals: Object.fromEntries(CUSTOMER_TOTALS.map((k, i) => [k, num(lists[i][0]?.orgs)])) as Record<string, number>,
      };
    },
    async () => {
      const farPast: Period = { from: 0, to: 0 };
      const [openDeals, openTickets, both] = await Promise.all([
        customers.ranking(db, accountId, 'open_deals', farPast, RANKING_LIMIT),
        customers.ranking(db, accountId, 'open_tickets', farPast, RANKING_LIMIT),
        customers.openSupportAndDeals(db, accountId, BY_CUSTOMER_LIMIT),
      ]);
      const [deals, tickets] = await withNames([openDeals, openTickets]);
      const names = await orgNameMap(
        db,
        accountId,
        both.map((r) => Number(r.org_id)),
      );
      return {
        now_rankings: { open_deals: deals, open_tickets: tickets },
        customers_with_open_support_and_open_deals: {
          count: num(both[0]?.orgs),
          orgs: both.map((r) => ({
            org_id: Number(r.org_id),
            name: names.get(Number(r.org_id)) ?? '',
            open_tickets: num(r.open_tickets),
            open_deals: num(r.open_deals),
          })),
        },
      };
    },
    (c, p) => ({ totals: changesOf(c.totals, p.totals) }),
  );
}

async function activityRows(db: Executor, accountId: number, p: Period): Promise<{ kind: string; n: number }[]> {
  if (!rollup.wholeDays(p)) return activityByKind(db, accountId, p);
  const r = await rollup.byDimension(db, accountId, p, ['activity_kind', 'support_log']);
  return [
    ...r.filter((x) => num(x.activity_kind) !== 0).map((x) => ({ kind: rollup.KIND_CODES[Number(x.dim)], n: num(x.activity_kind) })),
    { kind: 'support_log', n: r.reduce((sum, x) => sum + num(x.support_log), 0) },
  ];
}

export async function activityReport(ctx: ReportContext) {
  return buildReport(
    ctx,
    async (p) => {
      const rows = await activityRows(ctx.db, ctx.accountId, p);
      const count = (kind: string) => num(rows.find((r) => r.kind === kind)?.n);
      const by_kind = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, count(k)])) as Record<string, number>;
      const timeline = ACTIVITY_KINDS.reduce((s, k) => s + by_kind[k], 0);
      const support_log = count('support_log');
      return { total: timeline + support_log, by_source: { timeline, support_log }, by_kind };
    },
    async () => ({}),
    (c, p) => changesOf(c, p),
  );
}

const TREND_ROLLUP = ['deal_created', 'deal_won_owner', 'deal_lost_owner', 'activity_kind', 'ticket_created', 'ticket_closed', 'support_log'] as const;

async function weekRows(db: Executor, accountId: number, p: Period): Promise<WeekCounts[]> {
  if (!rollup.wholeDays(p)) return weeklyCounts(db, accountId, p);
  return (await rollup.byWeek(db, accountId, p, TREND_ROLLUP)).map((r) => ({
    week: num(r.week),
    ...(Object.fromEntries(TREND_FACTS.map((k, i) => [k, num(r[TREND_ROLLUP[i]])])) as Omit<WeekCounts, 'week'>),
  }));
}

export async function trendsReport(ctx: ReportContext) {
  return buildReport(
    ctx,
    async (p) => {
      const rows = await weekRows(ctx.db, ctx.accountId, p);
      const byWeek = new Map(rows.map((r) => [num(r.week), r]));
      const weeks = weeksOf(p).map((monday) => {
        const r = byWeek.get(weekIndex(monday));
        return {
          week: isoWeekLabel(monday),
          week_start: new Date(monday).toISOString().slice(0, 10),
          ...(Object.fromEntries(TREND_FACTS.map((k) => [k, r ? num(r[k]) : 0])) as Record<(typeof TREND_FACTS)[number], number>),
        };
      });
      return { weeks, totals: sumRows(weeks, TREND_FACTS) };
    },
    async () => ({}),
    (c, p) => ({ totals: changesOf(c.totals, p.totals) }),
  );
}
