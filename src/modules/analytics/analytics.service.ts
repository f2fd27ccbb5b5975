import type { Executor } from '../../db/database.ts';
import { DAY_MS, change, changesOf, isoWeekLabel, weekIndex, weeksOf, type Period } from './analytics.period.ts';
import { buildReport, byIdNullLast, sumRows, type ReportContext } from './analytics.report.ts';
import { activityByKind, weeklyCounts } from './analytics.activity.repository.ts';
import * as customers from './analytics.customers.repository.ts';
import * as support from './analytics.support.repository.ts';
import { accountUsers, teamCounts } from './analytics.team.repository.ts';
import { ACTIVITY_KINDS, CUSTOMER_TOTALS, SUPPORT_TOTALS, TEAM_TOTALS, TREND_FACTS } from './analytics.schemas.ts';
import { nullableId, num } from './analytics.sql.ts';

const AGED_MS = 7 * DAY_MS;
const BY_CUSTOMER_LIMIT = 50;
const RANKING_LIMIT = 10;

async function userNames(db: Executor, accountId: number) {
  return new Map((await accountUsers(db, accountId)).map((u) => [Number(u.id), u]));
}

async function orgNameMap(db: Executor, accountId: number, ids: number[]) {
  return new Map((await customers.orgNames(db, accountId, [...new Set(ids)])).map((o) => [Number(o.id), o.name]));
}

export async function supportReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const users = await userNames(db, accountId);
  const facts = ['created', 'closed', 'support_updates', 'currently_open'] as const;
  const metrics = async (p: Period) => {
    const [employees, orgs] = await Promise.all([
      support.supportByEmployee(db, accountId, p),
      support.supportByCustomer(db, accountId, p, BY_CUSTOMER_LIMIT),
    ]);
    const names = await orgNameMap(db, accountId, orgs.map((o) => Number(o.key)));
    const totals = sumRows(employees as never, facts);
    const pick = (r: support.SupportCounts) => Object.fromEntries(facts.map((k) => [k, num(r[k])]));
    return {
      metrics: {
        created: totals.created,
        closed: totals.closed,
        support_updates: totals.support_updates,
        by_employee: employees
          .map((r) => ({ id: nullableId(r.key), r }))
          .sort((a, b) => byIdNullLast(a.id, b.id))
          .map(({ id, r }) => ({ user_id: id, display_name: id === null ? null : (users.get(id)?.display_name ?? null), ...pick(r) })),
        by_customer: orgs.map((r) => ({ org_id: Number(r.key), name: names.get(Number(r.key)) ?? '', ...pick(r) })),
      },
      currently_open: totals.currently_open,
    };
  };
  // currently_open is "now": every period's pass sees the same value, so it is read from the current one.
  let currentlyOpen = 0;
  return buildReport(
    ctx,
    async (p) => {
      const m = await metrics(p);
      if (p === ctx.range.current) currentlyOpen = m.currently_open;
      return m.metrics;
    },
    async () => ({ aged_open: await support.openTicketsCreatedBefore(db, accountId, ctx.now - AGED_MS) }),
    (c, p) => Object.fromEntries(SUPPORT_TOTALS.map((k) => [k, change(c[k], p[k])])),
  ).then((r) => ({ ...r, currently_open: currentlyOpen }));
}

export async function teamReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const users = await accountUsers(db, accountId);
  return buildReport(
    ctx,
    async (p) => {
      const rows = await teamCounts(db, accountId, p);
      const byUser = new Map(rows.map((r) => [nullableId(r.user_id), r]));
      return {
        users: users.map((u) => {
          const r = byUser.get(Number(u.id));
          return {
            user_id: Number(u.id),
            display_name: u.display_name,
            is_active: Boolean(u.is_active),
            ...Object.fromEntries(TEAM_TOTALS.map((k) => [k, r ? num(r[k]) : 0])),
          };
        }),
        totals: sumRows(rows as never, TEAM_TOTALS),
      };
    },
    async () => ({}),
    (c, p) => ({ totals: changesOf(c.totals, p.totals) }),
  );
}

export async function customersReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const periodRankings = customers.RANKING_METRICS.filter((m) => !customers.NOW_METRICS.includes(m));
  const withNames = async (lists: { org_id: number; n: number }[][]) => {
    const names = await orgNameMap(db, accountId, lists.flat().map((r) => Number(r.org_id)));
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
      const names = await orgNameMap(db, accountId, both.map((r) => Number(r.org_id)));
      return {
        now_rankings: { open_deals: deals, open_tickets: tickets },
        customers_with_open_support_and_open_deals: {
          count: num(both[0]?.orgs),
          orgs: both.map((r) => ({ org_id: Number(r.org_id), name: names.get(Number(r.org_id)) ?? '', open_tickets: num(r.open_tickets), open_deals: num(r.open_deals) })),
        },
      };
    },
    (c, p) => ({ totals: changesOf(c.totals, p.totals) }),
  );
}

export async function activityReport(ctx: ReportContext) {
  return buildReport(
    ctx,
    async (p) => {
      const rows = await activityByKind(ctx.db, ctx.accountId, p);
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

export async function trendsReport(ctx: ReportContext) {
  return buildReport(
    ctx,
    async (p) => {
      const rows = await weeklyCounts(ctx.db, ctx.accountId, p);
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
