import type { Executor } from '../../db/database.ts';
import { DAY_MS, change, type Period } from './analytics.period.ts';
import { buildReport, byIdNullLast, sumRows, type ReportContext } from './analytics.report.ts';
import * as rollup from './analytics.rollup.repository.ts';
import { SUPPORT_TOTALS } from './analytics.schemas.ts';
import { orgNameMap } from './analytics.service.ts';
import { nullableId, num } from './analytics.sql.ts';
import * as support from './analytics.support.repository.ts';
import { accountUsers } from './analytics.team.repository.ts';

const AGED_MS = 7 * DAY_MS;
const BY_CUSTOMER_LIMIT = 50;
const FACTS = ['created', 'closed', 'support_updates', 'currently_open'] as const;

/** Per employee: the daily rollup for whole-day periods plus open tickets now, or the records for other periods. */
async function byEmployee(db: Executor, accountId: number, p: Period): Promise<support.SupportCounts[]> {
  if (!rollup.wholeDays(p)) return support.supportByEmployee(db, accountId, p);
  const [facts, open] = await Promise.all([
    rollup.byDimension(db, accountId, p, ['ticket_created', 'ticket_closed', 'support_log']),
    support.openTicketsPerOwner(db, accountId),
  ]);
  const out = new Map<number | null, support.SupportCounts>();
  const row = (key: number | null) => {
    if (!out.has(key)) out.set(key, { key, created: 0, closed: 0, support_updates: 0, currently_open: 0 });
    return out.get(key)!;
  };
  for (const r of facts) {
    const x = row(Number(r.dim) === 0 ? null : Number(r.dim));
    x.created = num(r.ticket_created);
    x.closed = num(r.ticket_closed);
    x.support_updates = num(r.support_log);
  }
  for (const r of open) row(nullableId(r.key)).currently_open = num(r.n);
  return [...out.values()];
}

export async function supportReport(ctx: ReportContext) {
  const { db, accountId } = ctx;
  const users = new Map((await accountUsers(db, accountId)).map((u) => [Number(u.id), u.display_name]));
  const pick = (r: support.SupportCounts) => Object.fromEntries(FACTS.map((k) => [k, num(r[k])]));
  // currently_open is "now": each period's pass sees the same value; it is reported once, from the current period.
  let currentlyOpen = 0;
  const metrics = async (p: Period) => {
    const [employees, orgs] = await Promise.all([byEmployee(db, accountId, p), support.supportByCustomer(db, accountId, p, BY_CUSTOMER_LIMIT)]);
    const names = await orgNameMap(
      db,
      accountId,
      orgs.map((o) => Number(o.key)),
    );
    const totals = sumRows(employees as never, FACTS);
    if (p === ctx.range.current) currentlyOpen = totals.currently_open;
    return {
      created: totals.created,
      closed: totals.closed,
      support_updates: totals.support_updates,
      by_employee: employees
        .map((r) => ({ id: nullableId(r.key), r }))
        .sort((a, b) => byIdNullLast(a.id, b.id))
        .map(({ id, r }) => ({ user_id: id, display_name: id === null ? null : (users.get(id) ?? null), ...pick(r) })),
      by_customer: orgs.map((r) => ({ org_id: Number(r.key), name: names.get(Number(r.key)) ?? '', ...pick(r) })),
    };
  };
  const report = await buildReport(
    ctx,
    metrics,
    async () => ({ aged_open: await support.openTicketsCreatedBefore(db, accountId, ctx.now - AGED_MS) }),
    (c, p) => Object.fromEntries(SUPPORT_TOTALS.map((k) => [k, change(c[k], p[k])])),
  );
  return { ...report, currently_open: currentlyOpen };
}
