import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Period } from './analytics.period.ts';
import { openPerOrg, perOrgRows } from './analytics.customers.repository.ts';
import { keptCount } from '../../lib/list-counts.ts';
import { inList } from '../../lib/sql.ts';
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

/** More candidates than this (ties at the cut) are read the general way. */
const MAX_CANDIDATES = 512;
/** Accounts with fewer orgs group them all: cheaper than the cut's extra query and plan (measured: 100 orgs, 0.4 against 0.9 ms on SQLite, 1.2 against 3.1 on PostgreSQL). */
const CUT_FROM_ORGS = 1_000;

/**
 * Per customer org, the `limit` busiest (tickets created, closed, updates, open; then org id):
 * whole months from the per-org monthly rollup, the days around them from the records.
 *
 * A period that is one bucket of the rollup (one calendar year or month: one row per org and fact)
 * reads the facts of the candidates only. The busiest orgs are ranked by tickets created first, so
 * when `limit` orgs created some, none created fewer than the `limit`-th most (the cut): each of
 * them is outranked by at least `limit` orgs. The other facts are then read for the orgs at or above
 * the cut by their key (usually `limit` orgs, a few more on ties), instead of grouping every org's
 * four rows (10,000 orgs at a million deals: docs/scaling.md#analytics-at-scale). The candidates go
 * in as a list of ids: as a subquery, PostgreSQL misjudged the open tickets' rows and probed the
 * candidates once for each of them. Otherwise (fewer orgs created tickets, more than
 * `MAX_CANDIDATES` tie at the cut, an account of fewer than `CUT_FROM_ORGS` orgs by its kept count, or
 * other periods) every org's rows are grouped.
 */
export async function supportByCustomer(db: Executor, accountId: number, p: Period, limit: number) {
  const per = (fact: string, from: (q: Period) => RawBuilder<unknown>) => perOrgRows(accountId, p, fact, from);
  const created = per('org_ticket_created', (q) => sql`tickets where account_id = ${accountId} and ${within('created_at', q)}`);
  const closed = per('org_ticket_closed', (q) => sql`tickets where account_id = ${accountId} and ${within('closed_at', q)} and status = 'closed'`);
  const logs = per('org_support_log', (q) => sql`support_logs where account_id = ${accountId} and ${within('created_at', q)}`);
  let candidates = (q: RawBuilder<unknown>) => q;
  if (created.onePerOrg && closed.onePerOrg && logs.onePerOrg && (await keptCount(db, accountId, 'orgs', [''])) >= CUT_FROM_ORGS) {
    const top = await rows<{ org_id: number }>(
      db,
      sql`
      select org_id from (${created.query}) c
      where n > 0 and n >= (select n from (${created.query}) cut where n > 0 order by n desc limit 1 offset ${limit - 1})
      limit ${MAX_CANDIDATES + 1}`,
    );
    if (top.length >= limit && top.length <= MAX_CANDIDATES) {
      const ids = sql.join(inList(top.map((r) => Number(r.org_id))).map((id) => sql`${id}`));
      candidates = (q) => sql`select org_id, n from (${q}) x where org_id in (${ids})`;
    }
  }
  return rows<SupportCounts>(
    db,
    sql`
    select k as ${sql.ref('key')}, sum(created) as created, sum(closed) as closed, sum(updates) as support_updates, sum(open_now) as currently_open
    from (
      select org_id as k, n as created, 0 as closed, 0 as updates, 0 as open_now from (${candidates(created.query)}) a
      union all select org_id, 0, n, 0, 0 from (${candidates(closed.query)}) b
      union all select org_id, 0, 0, n, 0 from (${candidates(logs.query)}) c
      union all select org_id, 0, 0, 0, n from (${candidates(openPerOrg(accountId, 'open_tickets'))}) d
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
