import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { openPerOrg, perOrgCounts } from './analytics.customers.repository.ts';
import { OPEN_TICKET, rows, within } from './analytics.sql.ts';

export interface SupportCounts {
  key: number | null;
  created: number;
  closed: number;
  support_updates: number;
  currently_open: number;
}

/**
 * One pass per fact, each over its own index, grouped by `ticketKey` (tickets) / `logKey`
 * (support logs): tickets created and closed in the period, logs in the period, open now.
 * Used for periods that are not whole days (the rollup answers the others).
 */
function countsBy(accountId: number, p: Period, ticketKey: string, logKey: string) {
  const t = sql.ref(ticketKey);
  return sql<SupportCounts>`
    select k as ${sql.ref('key')}, sum(created) as created, sum(closed) as closed,
      sum(updates) as support_updates, sum(open_now) as currently_open
    from (
      select ${t} as k, count(*) as created, 0 as closed, 0 as updates, 0 as open_now from tickets
        where account_id = ${accountId} and ${within('created_at', p)} group by ${t}
      union all
      select ${t}, 0, count(*), 0, 0 from tickets
        where account_id = ${accountId} and ${within('closed_at', p)} and status = 'closed' group by ${t}
      union all
      select ${sql.ref(logKey)}, 0, 0, count(*), 0 from support_logs
        where account_id = ${accountId} and ${within('created_at', p)} group by ${sql.ref(logKey)}
      union all
      select ${t}, 0, 0, 0, count(*) from tickets
        where account_id = ${accountId} and ${OPEN_TICKET} group by ${t}
    ) facts group by k`;
}

/** Per employee (ticket owner, log author); the row with a null key holds unassigned records. */
export function supportByEmployee(db: Executor, accountId: number, p: Period) {
  return rows(db, countsBy(accountId, p, 'owner_user_id', 'author_user_id'));
}

/**
 * Per customer org, the `limit` busiest (tickets created, closed, updates, open; then org id):
 * whole months from the per-org monthly rollup, the days around them from the records.
 */
export function supportByCustomer(db: Executor, accountId: number, p: Period, limit: number) {
  const per = (fact: string, from: (q: Period) => RawBuilder<unknown>) => perOrgCounts(accountId, p, fact, from);
  const created = per('org_ticket_created', (q) => sql`tickets where account_id = ${accountId} and ${within('created_at', q)}`);
  const closed = per('org_ticket_closed', (q) => sql`tickets where account_id = ${accountId} and ${within('closed_at', q)} and status = 'closed'`);
  const logs = per('org_support_log', (q) => sql`support_logs where account_id = ${accountId} and ${within('created_at', q)}`);
  return rows<SupportCounts>(
    db,
    sql`
    select k as ${sql.ref('key')}, sum(created) as created, sum(closed) as closed, sum(updates) as support_updates, sum(open_now) as currently_open
    from (
      select org_id as k, n as created, 0 as closed, 0 as updates, 0 as open_now from (${created}) a
      union all select org_id, 0, n, 0, 0 from (${closed}) b
      union all select org_id, 0, 0, n, 0 from (${logs}) c
      union all select org_id, 0, 0, 0, n from (${openPerOrg(accountId, 'open_tickets')}) d
    ) facts group by k having sum(created) + sum(closed) + sum(updates) + sum(open_now) > 0
    order by sum(created) desc, sum(closed) desc, sum(updates) desc, sum(open_now) desc, k asc limit ${limit}`,
  );
}

/** Open or pending tickets created before `before` (aged open). */
export async function openTicketsCreatedBefore(db: Executor, accountId: number, before: number): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`
    select count(*) as n from tickets where account_id = ${accountId} and ${OPEN_TICKET} and created_at < ${before}`,
  );
  return Number(r.n);
}

/** Open or pending tickets now, per owner (null: unassigned). */
export function openTicketsPerOwner(db: Executor, accountId: number) {
  return rows<{ key: number | null; n: number }>(
    db,
    sql`
    select owner_user_id as ${sql.ref('key')}, count(*) as n from tickets where account_id = ${accountId} and ${OPEN_TICKET} group by owner_user_id`,
  );
}
