import type { Executor } from '../../db/database.ts';

export interface ActivityFilter {
  orgId?: number;
  userId?: number;
  dealId?: number;
  ticketId?: number;
  from: number | null;
  to: number | null;
}

/** The sort key of one feed entry: enough to merge both sources and pick a page. */
export interface FeedKey {
  id: number;
  created_at: number;
}

/**
 * The newest `cap` deal activities matching the filter, keys only: an index range scan on
 * (account_id, created_at, id) or on the org / user index, never a full table read.
 */
export function timelineKeys(db: Executor, accountId: number, f: ActivityFilter, cap: number): Promise<FeedKey[]> {
  let q = db.selectFrom('deal_activities').select(['id', 'created_at']).where('account_id', '=', accountId);
  if (f.orgId !== undefined) q = q.where('org_id', '=', f.orgId);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.dealId !== undefined) q = q.where('deal_id', '=', f.dealId);
  if (f.from !== null) q = q.where('created_at', '>=', f.from);
  if (f.to !== null) q = q.where('created_at', '<=', f.to);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(cap).execute();
}

export function supportLogKeys(db: Executor, accountId: number, f: ActivityFilter, cap: number): Promise<FeedKey[]> {
  let q = db.selectFrom('support_logs').select(['id', 'created_at']).where('account_id', '=', accountId);
  if (f.orgId !== undefined) q = q.where('org_id', '=', f.orgId);
  if (f.userId !== undefined) q = q.where('author_user_id', '=', f.userId);
  if (f.ticketId !== undefined) q = q.where('ticket_id', '=', f.ticketId);
  if (f.from !== null) q = q.where('created_at', '>=', f.from);
  if (f.to !== null) q = q.where('created_at', '<=', f.to);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(cap).execute();
}

/** Deal activities of one page, with their author, org and the deal's contact. */
export function timelineRows(db: Executor, accountId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('deal_activities as a')
    .innerJoin('orgs as o', 'o.id', 'a.org_id')
    .innerJoin('deals as d', 'd.id', 'a.deal_id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('contacts as c', 'c.id', 'd.contact_id')
    .select([
      'a.id',
      'a.event_type',
      'a.message',
      'a.outcome',
      'a.deal_id',
      'a.org_id',
      'a.created_at',
      'o.name as org_name',
      'u.id as user_id',
      'u.display_name as user_display_name',
      'u.email as user_email',
      'c.id as contact_id',
      'c.name as contact_name',
      'c.email as contact_email',
    ])
    .where('a.account_id', '=', accountId)
    .where('a.id', 'in', ids)
    .execute();
}

/** Support logs of one page, with their author, org and the ticket's contact. */
export function supportLogRows(db: Executor, accountId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('support_logs as l')
    .innerJoin('orgs as o', 'o.id', 'l.org_id')
    .innerJoin('tickets as t', 't.id', 'l.ticket_id')
    .leftJoin('users as u', 'u.id', 'l.author_user_id')
    .leftJoin('contacts as c', 'c.id', 't.contact_id')
    .select([
      'l.id',
      'l.note',
      'l.channel',
      'l.ticket_id',
      'l.org_id',
      'l.created_at',
      'o.name as org_name',
      'u.id as user_id',
      'u.display_name as user_display_name',
      'u.email as user_email',
      'c.id as contact_id',
      'c.name as contact_name',
      'c.email as contact_email',
    ])
    .where('l.account_id', '=', accountId)
    .where('l.id', 'in', ids)
    .execute();
}

export type TimelineRow = Awaited<ReturnType<typeof timelineRows>>[number];
export type SupportLogRow = Awaited<ReturnType<typeof supportLogRows>>[number];
