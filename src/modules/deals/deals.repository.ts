import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DealsTable, DealStatus } from '../../db/schema.ts';
import { accountRowById } from '../../db/prepared.ts';
import { DEAL_COLUMNS } from '../../db/columns.ts';
import { keptCount } from '../../lib/list-counts.ts';
import { countRows, pageWindow } from '../../lib/sql.ts';
import {
  countTitledCreated,
  countTitledText,
  noFilterSet,
  titledPageWithTotal,
  titledFilters,
  titledSortKey,
  titledTextPlan,
  type TextPlan,
  type TitledFilter,
} from '../../lib/titled-records.ts';

export type DealRow = Selectable<DealsTable>;
export type DealSort = 'created_at' | 'updated_at' | 'id' | 'title' | 'status';
export type Direction = 'asc' | 'desc';

export interface DealFilter extends TitledFilter {
  status?: DealStatus;
  updatedFrom?: number | null;
  updatedTo?: number | null;
}

export interface DealSearch {
  paymentCustomerId?: string;
  contactEmailLc?: string;
  orgId?: number;
}

const sortExpression = (db: Executor, sort: DealSort) => titledSortKey(db, 'deals', sort);

function filtered(db: Executor, accountId: number, f: DealFilter, plan: TextPlan = 'index') {
  let query = db.selectFrom('deals').where('deals.account_id', '=', accountId);
  if (f.status) query = query.where('deals.status', '=', f.status);
  for (const condition of titledFilters(db, 'deals', accountId, f, plan)) query = query.where(condition);
  if (f.updatedFrom != null) query = query.where('deals.updated_at', '>=', f.updatedFrom);
  if (f.updatedTo != null) query = query.where('deals.updated_at', '<=', f.updatedTo);
  return query;
}

/**
 * The whole list and a status are kept counts (list_counts); `q` alone is counted in the trigram
 * index where it can be (SQLite); a creation-time range alone mostly from the daily rollup
 * (`countTitledCreated`); any other filter counts through its index.
 */
export async function countDeals(db: Executor, accountId: number, f: DealFilter): Promise<number> {
  const { status, ...rest } = f;
  if (noFilterSet(rest)) return keptCount(db, accountId, 'deals', [status ? `status:${status}` : '']);
  return (
    (await countTitledText(db, 'deals', accountId, f)) ?? (await countTitledCreated(db, 'deals', accountId, f)) ?? countRows(db, filtered(db, accountId, f))
  );
}

/** The whole list or one status: the page and its kept total in one statement (`titledPageWithTotal`); null for any other filter. */
export function listDealsWithTotal(
  db: Executor,
  accountId: number,
  f: DealFilter,
  sort: DealSort,
  direction: Direction,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: DealRow[] }> | null {
  const { status, ...rest } = f;
  if (!noFilterSet(rest)) return null;
  return titledPageWithTotal<DealRow>(db, 'deals', DEAL_COLUMNS, accountId, status || undefined, sort, direction, limit, offset);
}

export async function listDeals(
  db: Executor,
  accountId: number,
  f: DealFilter,
  sort: DealSort,
  direction: Direction,
  limit: number,
  offset: number,
  total?: number,
): Promise<DealRow[]> {
  const plan = await titledTextPlan(db, 'deals', accountId, f, { total, limit, offset });
  // The page's ids first, from the index alone (the offset skips index entries, not rows), then those rows.
  const ids = pageWindow(
    filtered(db, accountId, f, plan).select('deals.id').orderBy(sortExpression(db, sort), direction).orderBy('deals.id', direction),
    limit,
    offset,
  );
  return db
    .selectFrom('deals')
    .select(DEAL_COLUMNS)
    .where('deals.id', 'in', ids)
    .orderBy(sortExpression(db, sort), direction)
    .orderBy('deals.id', direction)
    .execute();
}

function searched(db: Executor, accountId: number, s: DealSearch) {
  let query = db.selectFrom('deals').where('deals.account_id', '=', accountId);
  if (s.paymentCustomerId !== undefined) query = query.where('deals.payment_customer_id', '=', s.paymentCustomerId);
  if (s.orgId !== undefined) query = query.where('deals.org_id', '=', s.orgId);
  if (s.contactEmailLc !== undefined) {
    const email = s.contactEmailLc;
    // Contacts with that e-mail first (by index), then their deals: never a probe per deal of the account.
    query = query.where('deals.contact_id', 'in', (eb) =>
      eb.selectFrom('contacts').select('contacts.id').where('contacts.account_id', '=', accountId).where('contacts.email_lc', '=', email),
    );
  }
  return query;
}

export async function countSearch(db: Executor, accountId: number, s: DealSearch): Promise<number> {
  return countRows(db, searched(db, accountId, s));
}

export function searchDeals(db: Executor, accountId: number, s: DealSearch, limit: number, offset: number): Promise<DealRow[]> {
  const ids = pageWindow(searched(db, accountId, s).select('deals.id').orderBy('deals.created_at', 'desc').orderBy('deals.id', 'desc'), limit, offset);
  return db.selectFrom('deals').select(DEAL_COLUMNS).where('deals.id', 'in', ids).orderBy('deals.created_at', 'desc').orderBy('deals.id', 'desc').execute();
}

/** The account's deal by id; `forUpdate` locks the row on PostgreSQL so concurrent state moves serialize (SQLite writers already do). */
export const findDeal: (db: Executor, accountId: number, id: number, options?: { forUpdate?: boolean }) => Promise<DealRow | undefined> = accountRowById(
  'deals',
  DEAL_COLUMNS,
);

export async function insertDeal(db: Executor, values: Insertable<DealsTable>): Promise<DealRow> {
  return db.insertInto('deals').values(values).returning(DEAL_COLUMNS).executeTakeFirstOrThrow();
}

export async function updateDeal(db: Executor, accountId: number, id: number, values: Updateable<DealsTable>): Promise<DealRow> {
  return db.updateTable('deals').set(values).where('account_id', '=', accountId).where('id', '=', id).returning(DEAL_COLUMNS).executeTakeFirstOrThrow();
}

export async function insertStatusHistory(
  db: Executor,
  row: { account_id: number; deal_id: number; from_status: DealStatus | null; to_status: DealStatus; changed_by_user_id: number | null; changed_at: number },
): Promise<void> {
  await db.insertInto('deal_status_history').values(row).execute();
}

// Existence checks for ids given in filters and bodies: always within the account.
export async function contactOrg(db: Executor, accountId: number, id: number): Promise<number | undefined> {
  const r = await db.selectFrom('contacts').select('org_id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return r ? Number(r.org_id) : undefined;
}
