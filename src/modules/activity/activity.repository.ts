import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { inList } from '../../lib/sql.ts';
import type { DealActivitiesTable, SupportLogsTable } from '../../db/schema.ts';
import type { ActivitySource } from './activity.schemas.ts';

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
 * The feed's two sources: entries of an org written by a user on a parent record (a deal or a
 * ticket, which names the contact). Each names its table, its author and parent columns, the
 * parent table, the filter that narrows to one parent, and the columns of its own content.
 */
const SOURCES = {
  timeline: {
    table: 'deal_activities',
    author: 'user_id',
    parent: 'deal_id',
    parents: 'deals',
    parentFilter: 'dealId',
    content: ['event_type', 'message', 'outcome', 'deal_id'],
  },
  support_log: {
    table: 'support_logs',
    author: 'author_user_id',
    parent: 'ticket_id',
    parents: 'tickets',
    parentFilter: 'ticketId',
    content: ['note', 'channel', 'ticket_id'],
  },
} as const;

/**
 * The newest `cap` entries of `source` matching the filter, keys only: an index range scan on
 * (account_id, created_at, id) or on the org / user index, never a full table read.
 */
export function feedKeys(db: Executor, source: ActivitySource, accountId: number, f: ActivityFilter, cap: number): Promise<FeedKey[]> {
  const s = SOURCES[source];
  const parentId = f[s.parentFilter];
  let q = db.selectFrom(s.table).select(['id', 'created_at']).where('account_id', '=', accountId);
  if (f.orgId !== undefined) q = q.where('org_id', '=', f.orgId);
  if (f.userId !== undefined) q = q.where(s.author, '=', f.userId);
  if (parentId !== undefined) q = q.where(s.parent, '=', parentId);
  if (f.from !== null) q = q.where('created_at', '>=', f.from);
  if (f.to !== null) q = q.where('created_at', '<=', f.to);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(cap).execute();
}

/** The parent record (a deal or a ticket), as far as the feed reads it. */
interface Parent {
  id: number;
  contact_id: number | null;
}

/**
 * What a page's row carries besides its source's content: the entry's key and org, its author, and the
 * parent's contact. The select list of `feedRows` builds these names from a table chosen at run time,
 * so the compiler cannot check them against it: a column added or renamed there changes here too
 * (the activity feed's API tests read every field).
 */
interface Joined {
  id: number;
  org_id: number;
  created_at: number;
  org_name: string;
  user_id: number | null;
  user_display_name: string | null;
  user_email: string | null;
  contact_id: number | null;
  contact_name: string | null;
  contact_email: string | null;
}

export type TimelineRow = Joined & Pick<DealActivitiesTable, (typeof SOURCES.timeline.content)[number]>;
export type SupportLogRow = Joined & Pick<SupportLogsTable, (typeof SOURCES.support_log.content)[number]>;
interface FeedRows {
  timeline: TimelineRow;
  support_log: SupportLogRow;
}

/** Entries of `source` of one page, with their author, org and the parent's contact. */
export function feedRows<S extends ActivitySource>(db: Executor, source: S, accountId: number, ids: number[]): Promise<FeedRows[S][]> {
  if (ids.length === 0) return Promise.resolve([]);
  const s = SOURCES[source];
  const entry = (column: string) => db.dynamic.ref(`e.${column}`);
  return db
    .selectFrom(db.dynamic.table(s.table).as('e'))
    .innerJoin('orgs as o', 'o.id', 'e.org_id')
    .innerJoin(sql<Parent>`${sql.table(s.parents)}`.as('p'), (join) => join.onRef('p.id', '=', entry(s.parent)))
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', entry(s.author)))
    .leftJoin('contacts as c', 'c.id', 'p.contact_id')
    .select([
      'e.id',
      ...s.content.map(entry),
      'e.org_id',
      'e.created_at',
      'o.name as org_name',
      'u.id as user_id',
      'u.display_name as user_display_name',
      'u.email as user_email',
      'c.id as contact_id',
      'c.name as contact_name',
      'c.email as contact_email',
    ])
    .where('e.account_id', '=', accountId)
    .where('e.id', 'in', inList(ids))
    .execute() as Promise<FeedRows[S][]>;
}
