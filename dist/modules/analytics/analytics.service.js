import { changesOf, isoWeekLabel, weekIndex, weeksOf } from './analytics.period.js';
import { buildReport, sumRows } from './analytics.report.js';
import { activityByKind, weeklyCounts } from './analytics.activity.repository.js';
import * as customers from './analytics.customers.repository.js';
import { accountUsers, teamCounts } from './analytics.team.repository.js';
import * as rollup from './analytics.rollup.repository.js';
import { ACTIVITY_KINDS, CUSTOMER_TOTALS, TEAM_TOTALS, TREND_FACTS } from './analytics.schemas.js';
import { nullableId, num } from './analytics.sql.js';
const BY_CUSTOMER_LIMIT = 50;
const RANKING_LIMIT = 10;
export async function orgNameMap(db, accountId, ids) {
    return new Map((await customers.orgNames(db, accountId, [...new Set(ids)])).map((o) => [Number(o.id), o.name]));
}
const TEAM_FACTS = ['deal_created', 'deal_won_owner', 'deal_lost_owner', 'activity_user', 'ticket_closed', 'support_log'];
async function teamRows(db, accountId, p) {
    if (!rollup.wholeDays(p))
        return teamCounts(db, accountId, p);
    return (await rollup.byDimension(db, accountId, p, TEAM_FACTS)).map((r) => ({
        user_id: Number(r.dim) === 0 ? null : Number(r.dim),
        ...Object.fromEntries(TEAM_TOTALS.map((k, i) => [k, r[TEAM_FACTS[i]]])),
    }));
}
export async function teamReport(ctx) {
    const { db, accountId } = ctx;
    const users = await accountUsers(db, accountId);
    return buildReport(ctx, async (p) => {
        const rows = await teamRows(db, accountId, p);
        const byUser = new Map(rows.map((r) => [nullableId(r.user_id), r]));
        const facts = (r) => Object.fromEntries(TEAM_TOTALS.map((k) => [k, r ? num(r[k]) : 0]));
        const named = users.map((u) => ({ user_id: Number(u.id), display_name: u.display_name, is_active: Boolean(u.is_active), ...facts(byUser.get(Number(u.id))) }));
        // Records without a user get their own last row, so that the rows sum to totals.
        const none = facts(byUser.get(null));
        const unattributed = TEAM_TOTALS.some((k) => none[k] !== 0) ? [{ user_id: null, display_name: null, is_active: null, ...none }] : [];
        return { users: [...named, ...unattributed], totals: sumRows(rows, TEAM_TOTALS) };
    }, async () => ({}), (c, p) => ({ totals: changesOf(c.totals, p.totals) }));
}
export async function customersReport(ctx) {
    const { db, accountId } = ctx;
    const periodRankings = customers.RANKING_METRICS.filter((m) => !customers.NOW_METRICS.includes(m));
    const withNames = async (lists) => {
        const names = await orgNameMap(db, accountId, lists.flat().map((r) => Number(r.org_id)));
        return lists.map((l) => l.map((r) => ({ org_id: Number(r.org_id), name: names.get(Number(r.org_id)) ?? '', value: num(r.n) })));
    };
    return buildReport(ctx, async (p) => {
        const lists = await Promise.all(periodRankings.map((m) => customers.ranking(db, accountId, m, p, RANKING_LIMIT)));
        const named = await withNames(lists);
        return {
            rankings: Object.fromEntries(periodRankings.map((m, i) => [m, named[i]])),
            totals: Object.fromEntries(CUSTOMER_TOTALS.map((k, i) => [k, num(lists[i][0]?.orgs)])),
        };
    }, async () => {
        const farPast = { from: 0, to: 0 };
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
    }, (c, p) => ({ totals: changesOf(c.totals, p.totals) }));
}
async function activityRows(db, accountId, p) {
    if (!rollup.wholeDays(p))
        return activityByKind(db, accountId, p);
    const r = await rollup.byDimension(db, accountId, p, ['activity_kind', 'support_log']);
    return [
        ...r.filter((x) => num(x.activity_kind) !== 0).map((x) => ({ kind: rollup.KIND_CODES[Number(x.dim)], n: num(x.activity_kind) })),
        { kind: 'support_log', n: r.reduce((sum, x) => sum + num(x.support_log), 0) },
    ];
}
export async function activityReport(ctx) {
    return buildReport(ctx, async (p) => {
        const rows = await activityRows(ctx.db, ctx.accountId, p);
        const count = (kind) => num(rows.find((r) => r.kind === kind)?.n);
        const by_kind = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, count(k)]));
        const timeline = ACTIVITY_KINDS.reduce((s, k) => s + by_kind[k], 0);
        const support_log = count('support_log');
        return { total: timeline + support_log, by_source: { timeline, support_log }, by_kind };
    }, async () => ({}), (c, p) => changesOf(c, p));
}
const TREND_ROLLUP = ['deal_created', 'deal_won_owner', 'deal_lost_owner', 'activity_kind', 'ticket_created', 'ticket_closed', 'support_log'];
async function weekRows(db, accountId, p) {
    if (!rollup.wholeDays(p))
        return weeklyCounts(db, accountId, p);
    return (await rollup.byWeek(db, accountId, p, TREND_ROLLUP)).map((r) => ({
        week: num(r.week),
        ...Object.fromEntries(TREND_FACTS.map((k, i) => [k, num(r[TREND_ROLLUP[i]])])),
    }));
}
export async function trendsReport(ctx) {
    return buildReport(ctx, async (p) => {
        const rows = await weekRows(ctx.db, ctx.accountId, p);
        const byWeek = new Map(rows.map((r) => [num(r.week), r]));
        const weeks = weeksOf(p).map((monday) => {
            const r = byWeek.get(weekIndex(monday));
            return {
                week: isoWeekLabel(monday),
                week_start: new Date(monday).toISOString().slice(0, 10),
                ...Object.fromEntries(TREND_FACTS.map((k) => [k, r ? num(r[k]) : 0])),
            };
        });
        return { weeks, totals: sumRows(weeks, TREND_FACTS) };
    }, async () => ({}), (c, p) => ({ totals: changesOf(c.totals, p.totals) }));
}
