import type { Executor } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import { dateRange } from '../../lib/dates.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { offsetOf, paginate, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './activity.repository.ts';
import { ACTIVITY_CAP_PER_SOURCE, type ActivityItemView, type ActivityListQueryType, type ActivitySource, type SourceParam } from './activity.schemas.ts';
import { existsInAccount } from '../../lib/sql.ts';

const SOURCES: Record<SourceParam, ActivitySource[]> = {
  all: ['timeline', 'support_log'],
  timeline: ['timeline'],
  sales: ['timeline'],
  support_log: ['support_log'],
  support: ['support_log'],
};

interface MergedKey extends repo.FeedKey {
  source: ActivitySource;
}

/**
 * Feed order: created_at desc; at equal times the larger numeric id first, then timeline
 * before support_log, so the order is total and stable across pages.
 */
function newestFirst(a: MergedKey, b: MergedKey): number {
  return b.created_at - a.created_at || b.id - a.id || (a.source === b.source ? 0 : a.source === 'timeline' ? -1 : 1);
}

/** Filters naming another account's records are 404, exactly as if they did not exist. */
async function checkFilterIds(db: Executor, accountId: number, f: repo.ActivityFilter): Promise<void> {
  const checks: [number | undefined, 'orgs' | 'users' | 'deals' | 'tickets', 'org_not_found' | 'user_not_found' | 'deal_not_found' | 'ticket_not_found'][] = [
    [f.orgId, 'orgs', 'org_not_found'],
    [f.userId, 'users', 'user_not_found'],
    [f.dealId, 'deals', 'deal_not_found'],
    [f.ticketId, 'tickets', 'ticket_not_found'],
  ];
  for (const [id, table, code] of checks) {
    if (id !== undefined && !(await existsInAccount(db, table, accountId, id))) throw notFound(code, id);
  }
}

function filterOf(query: ActivityListQueryType): repo.ActivityFilter {
  if (query.employee_user_id !== undefined && query.user_id !== undefined && query.employee_user_id !== query.user_id) {
    throw validationError({ user_id: 'invalid' }, 'user_id is an alias of employee_user_id; when both are given they must be equal.');
  }
  const { from, to } = dateRange(query as Record<string, unknown>, 'from', 'to');
  return {
    orgId: query.org_id,
    userId: query.employee_user_id ?? query.user_id,
    dealId: query.deal_id,
    ticketId: query.ticket_id,
    from,
    to,
  };
}

/**
 * The unified feed. Each source contributes at most its newest 500 matching rows; the two
 * capped lists are merged and the page is cut from the merged set, so `total` counts the
 * capped set. Only keys are read for the merge; full rows are fetched for the page alone.
 */
export async function listActivity(db: Executor, accountId: number, query: ActivityListQueryType, page: PageRequest): Promise<ListResult<ActivityItemView>> {
  const filter = filterOf(query);
  await checkFilterIds(db, accountId, filter);
  const sources = SOURCES[query.source ?? 'all'];
  const merged: MergedKey[] = [];
  // A deal filter matches no support log and a ticket filter no timeline entry.
  if (sources.includes('timeline') && filter.ticketId === undefined) {
    for (const k of await repo.feedKeys(db, 'timeline', accountId, filter, ACTIVITY_CAP_PER_SOURCE)) merged.push({ ...k, source: 'timeline' });
  }
  if (sources.includes('support_log') && filter.dealId === undefined) {
    for (const k of await repo.feedKeys(db, 'support_log', accountId, filter, ACTIVITY_CAP_PER_SOURCE)) merged.push({ ...k, source: 'support_log' });
  }
  merged.sort(newestFirst);
  const offset = offsetOf(page);
  const slice = merged.slice(offset, offset + page.per_page);
  const idsOf = (source: ActivitySource) => slice.filter((k) => k.source === source).map((k) => k.id);
  const [timeline, logs] = await Promise.all([
    repo.feedRows(db, 'timeline', accountId, idsOf('timeline')),
    repo.feedRows(db, 'support_log', accountId, idsOf('support_log')),
  ]);
  const byKey = new Map<string, ActivityItemView>();
  for (const r of timeline) byKey.set(`timeline:${r.id}`, timelineView(r));
  for (const r of logs) byKey.set(`support_log:${r.id}`, supportLogView(r));
  // A row deleted between the two reads drops out of the page rather than failing it.
  const data = slice.map((k) => byKey.get(`${k.source}:${k.id}`)).filter((v): v is ActivityItemView => v !== undefined);
  return { data, pagination: paginate(page, merged.length) };
}

type Joined = Pick<repo.TimelineRow, 'org_id' | 'org_name' | 'user_id' | 'user_display_name' | 'user_email' | 'contact_id' | 'contact_name' | 'contact_email'>;

function people(r: Joined): Pick<ActivityItemView, 'employee' | 'customer'> {
  return {
    employee: r.user_id === null ? null : { id: Number(r.user_id), display_name: r.user_display_name!, email: r.user_email! },
    customer: {
      org_id: Number(r.org_id),
      name: r.org_name,
      contact: r.contact_id === null ? null : { id: Number(r.contact_id), name: r.contact_name, email: r.contact_email },
    },
  };
}

function timelineView(r: repo.TimelineRow): ActivityItemView {
  return {
    id: `timeline:${r.id}`,
    type: r.event_type,
    source: 'timeline',
    content: r.message,
    ...people(r),
    deal_id: Number(r.deal_id),
    ticket_id: null,
    outcome: r.outcome,
    channel: null,
    occurred_at: iso(r.created_at),
    created_at: iso(r.created_at),
  };
}

function supportLogView(r: repo.SupportLogRow): ActivityItemView {
  return {
    id: `support_log:${r.id}`,
    type: 'support_log',
    source: 'support_log',
    content: r.note,
    ...people(r),
    deal_id: null,
    ticket_id: Number(r.ticket_id),
    outcome: null,
    channel: r.channel,
    occurred_at: iso(r.created_at),
    created_at: iso(r.created_at),
  };
}
