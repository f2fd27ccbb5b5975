import { notFound } from '../../lib/errors.ts';
import { DAY_MS, change, rateChange, winRate, type Period } from './analytics.period.ts';
import { buildReport, byIdNullLast, renderCents, type ReportContext } from './analytics.report.ts';
import * as repo from './analytics.sales.repository.ts';
import * as rollup from './analytics.rollup.repository.ts';
import { accountUsers } from './analytics.team.repository.ts';
import { FUNNEL_STAGES } from './analytics.schemas.ts';
import { nullableId, num } from './analytics.sql.ts';
import { existsInAccount } from '../../lib/sql.ts';

const OPEN_STATUSES = ['new', 'qualified', 'proposal', 'negotiation'] as const;
const STALE_MS = 14 * DAY_MS;

function moneyTotals(rows: { currency: string | null; cents: number | null }[]) {
  const byCurrency = new Map<string | null, number>();
  for (const r of rows) if (r.cents !== null) byCurrency.set(r.currency, (byCurrency.get(r.currency) ?? 0) + Number(r.cents));
  return [...byCurrency]
    .sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1))
    .map(([currency, cents]) => ({ currency, value: renderCents(cents) }));
}

const userOf = (dim: number) => (Number(dim) === 0 ? null : Number(dim));

/** Whole-day periods read the daily rollup; others (and closer counts for one owner, which the rollup does not pair) read the deals. */
async function createdPerOwner(ctx: ReportContext, p: Period, f: repo.SalesFilter) {
  if (!rollup.wholeDays(p)) return repo.createdPerOwner(ctx.db, ctx.accountId, p, f);
  const r = await rollup.byDimension(ctx.db, ctx.accountId, p, ['deal_created'], f.ownerUserId);
  return r.map((x) => ({ user_id: userOf(x.dim), n: x.deal_created }));
}

async function closedPerRep(ctx: ReportContext, p: Period, f: repo.SalesFilter) {
  if (!rollup.wholeDays(p) || (f.by === 'closer' && f.ownerUserId !== undefined)) return repo.closedPerRep(ctx.db, ctx.accountId, p, f);
  const [won, lost] = f.by === 'closer' ? (['deal_won_closer', 'deal_lost_closer'] as const) : (['deal_won_owner', 'deal_lost_owner'] as const);
  const r = await rollup.byDimension(ctx.db, ctx.accountId, p, [won, lost], f.ownerUserId);
  return r.map((x) => ({ user_id: userOf(x.dim), won: (x as Record<string, number>)[won], lost: (x as Record<string, number>)[lost] }));
}

async function periodMetrics(ctx: ReportContext, p: Period, f: repo.SalesFilter, names: Map<number, string>) {
  const { db, accountId } = ctx;
  const [created, closed, reasons, reach] = await Promise.all([
    createdPerOwner(ctx, p, f),
    closedPerRep(ctx, p, f),
    repo.lostReasons(db, accountId, p, f),
    rollup.wholeDays(p) && f.ownerUserId === undefined ? rollup.funnelByStage(db, accountId, p) : repo.funnelReach(db, accountId, p, f),
  ]);
  const reps = new Map<number | null, { created: number; won: number; lost: number }>();
  const rep = (id: unknown) => {
    const key = nullableId(id);
    if (!reps.has(key)) reps.set(key, { created: 0, won: 0, lost: 0 });
    return reps.get(key)!;
  };
  for (const r of created) rep(r.user_id).created += num(r.n);
  for (const r of closed) {
    rep(r.user_id).won += num(r.won);
    rep(r.user_id).lost += num(r.lost);
  }
  const totals = { created: 0, won: 0, lost: 0 };
  for (const v of reps.values()) for (const k of ['created', 'won', 'lost'] as const) totals[k] += v[k];
  const by_rep = [...reps]
    .sort(([ia, a], [ib, b]) => b.won - a.won || b.created - a.created || byIdNullLast(ia, ib))
    .map(([user_id, v]) => ({ user_id, display_name: user_id === null ? null : (names.get(user_id) ?? null), ...v, win_rate: winRate(v.won, v.lost) }));
  const funnel = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, reach.filter((r) => r.stage === s).reduce((sum, r) => sum + num(r.n), 0)]));
  const lost_reasons = reasons
    .map((r) => ({ code: r.code, label: r.label, count: num(r.n) }))
    .sort((a, b) => b.count - a.count || (a.code === b.code ? 0 : a.code === null ? 1 : b.code === null ? -1 : a.code < b.code ? -1 : 1));
  return { ...totals, win_rate: winRate(totals.won, totals.lost), by_rep, funnel, lost_reasons };
}

async function openPipeline(ctx: ReportContext, f: repo.SalesFilter) {
  const { db, accountId, now } = ctx;
  const [groups, overdue, stale] = await Promise.all([
    repo.openPipeline(db, accountId, f),
    repo.openDealsFollowUpBefore(db, accountId, now, f),
    repo.openDealsIdleSince(db, accountId, now - STALE_MS, f),
  ]);
  const by_status = OPEN_STATUSES.map((status) => {
    const mine = groups.filter((g) => g.status === status);
    return { status, count: mine.reduce((s, g) => s + num(g.n), 0), values: moneyTotals(mine) };
  });
  return {
    open_pipeline: {
      count: by_status.reduce((s, g) => s + g.count, 0),
      values: moneyTotals(groups),
      by_status,
      overdue_followups: overdue,
      deals_without_activity_14d: stale,
    },
  };
}

export async function salesReport(ctx: ReportContext, f: repo.SalesFilter) {
  if (f.ownerUserId !== undefined && !(await existsInAccount(ctx.db, 'users', ctx.accountId, f.ownerUserId))) throw notFound('user_not_found', f.ownerUserId);
  const names = new Map((await accountUsers(ctx.db, ctx.accountId)).map((u) => [Number(u.id), u.display_name]));
  type M = Awaited<ReturnType<typeof periodMetrics>>;
  return buildReport(
    ctx,
    (p) => periodMetrics(ctx, p, f, names),
    () => openPipeline(ctx, f),
    (c: M, p: M) => ({
      created: change(c.created, p.created),
      won: change(c.won, p.won),
      lost: change(c.lost, p.lost),
      win_rate: rateChange(c.win_rate, p.win_rate),
      funnel: Object.fromEntries(FUNNEL_STAGES.map((s) => [s, change(c.funnel[s], p.funnel[s])])),
    }),
    { by: f.by, owner_user_id: f.ownerUserId ?? null },
  );
}
