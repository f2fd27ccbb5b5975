import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { keptCount } from './list-counts.ts';
import { countTextMatches, matchesText, MIN_INDEXED_TERM } from './text-search.ts';
import { FIRST_PAGE_SIZES } from './sql.ts';
import type { Executor } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { prepareQuery, type PreparedQuery } from '../db/prepared.ts';

/** Deals and tickets: titled records of an org, with an owner and a contact, listed with the same filters and sorts. */
export type TitledTable = 'deals' | 'tickets';

export interface TitledFilter {
  orgId?: number;
  ownerUserId?: number;
  contactId?: number;
  q?: string;
  createdFrom?: number | null;
  createdTo?: number | null;
}

/** The filters deals and tickets share, as conditions on `table`'s columns of rows of `accountId` (none when no filter is set). */
export function titledFilters(db: Executor, table: TitledTable, accountId: number, f: TitledFilter, plan: TextPlan = 'index'): Expression<SqlBool>[] {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const conditions: Expression<SqlBool>[] = [];
  if (f.orgId !== undefined) conditions.push(sql<SqlBool>`${column('org_id')} = ${f.orgId}`);
  if (f.ownerUserId !== undefined) conditions.push(sql<SqlBool>`${column('owner_user_id')} = ${f.ownerUserId}`);
  if (f.contactId !== undefined) conditions.push(sql<SqlBool>`${column('contact_id')} = ${f.contactId}`);
  if (f.q) conditions.push(matchesText(db, table, accountId, [`${table}.title_lc`], f.q, { viaIndex: plan === 'index' }));
  if (f.createdFrom != null) conditions.push(sql<SqlBool>`${column('created_at')} >= ${f.createdFrom}`);
  if (f.createdTo != null) conditions.push(sql<SqlBool>`${column('created_at')} <= ${f.createdTo}`);
  return conditions;
}

/**
 * How a page of `q` matches is found: `index` takes every match from the trigram index, then sorts
 * them; `walk` reads the sort's index in order and tests each row's title, stopping at the page's
 * end. Walking wins when matches are dense (a common term in a big account: the page's last row is
 * a few hundred rows in, where the index would hand over tens of thousands of matches to sort),
 * the index when they are sparse.
 */
export type TextPlan = 'index' | 'walk';

/** `q` and nothing else set (the other fields of `f` unset): the filter whose total and plan the trigram index can decide. */
function textOnly(f: object & { q?: string }): f is { q: string } {
  return !!f.q && noFilterSet({ ...f, q: undefined });
}

/** The total of a filter of `q` alone, from the trigram index where it counts exactly (SQLite); null otherwise. */
export function countTitledText(db: Executor, table: TitledTable, accountId: number, f: object & { q?: string }): Promise<number | null> {
  return textOnly(f) ? countTextMatches(db, table, accountId, f.q) : Promise.resolve(null);
}

const DAY_MS = 86_400_000;

/**
 * The total of a filter of the creation time alone (`created_from`, `created_to` or both, nothing
 * else set), or null for any other filter. A month of a big account holds tens of thousands of
 * records, and counting them through the index grew with the account; instead, the whole UTC days
 * inside the range come from the rollup `<deal|ticket>_created_total` (one row a day for the
 * account, kept exact by the analytics triggers in the writing transaction), and only the parts of
 * a day at either end are counted through the index: at most two days of rows. One statement, so
 * one snapshot: exact the moment a write commits, as the rows are.
 */
export async function countTitledCreated(db: Executor, table: TitledTable, accountId: number, f: TitledFilter & object): Promise<number | null> {
  const from = f.createdFrom ?? null;
  const to = f.createdTo ?? null;
  if ((from === null && to === null) || !noFilterSet({ ...f, createdFrom: undefined, createdTo: undefined })) return null;
  // Whole days d with [d·DAY, (d+1)·DAY − 1] inside [from, to] (both bounds inclusive, as the filter).
  const firstDay = from === null ? null : Math.ceil(from / DAY_MS);
  const lastDay = to === null ? null : Math.floor((to + 1) / DAY_MS) - 1;
  if (firstDay !== null && lastDay !== null && firstDay > lastDay) return null; // under two days: the index counts it
  const fact = table === 'deals' ? 'deal_created_total' : 'ticket_created_total';
  const rows = sql.ref(table);
  const days = sql`select coalesce(sum(n), 0) from analytics_daily where account_id = ${accountId} and fact = ${fact} and dim = 0
    ${firstDay === null ? sql`` : sql`and day >= ${firstDay}`} ${lastDay === null ? sql`` : sql`and day <= ${lastDay}`}`;
  const head =
    firstDay === null
      ? sql`0`
      : sql`(select count(*) from ${rows} where account_id = ${accountId} and created_at >= ${from} and created_at < ${firstDay * DAY_MS})`;
  const tail =
    lastDay === null
      ? sql`0`
      : sql`(select count(*) from ${rows} where account_id = ${accountId} and created_at >= ${(lastDay + 1) * DAY_MS} and created_at <= ${to})`;
  const { rows: result } = await sql<{ n: number | string }>`select (${days}) + ${head} + ${tail} as n`.execute(db);
  return Number(result[0].n);
}

/**
 * The plan of one page of a filter of `q` alone with `total` matches (docs/scaling.md#search):
 * walk when the rows expected before the page's end, `(offset + limit) × rows / total` with the
 * account's kept row count, are fewer than the matches the index would hand over. Only where
 * the count came from the index (SQLite); PostgreSQL's planner weighs its GIN index itself.
 */
export async function titledTextPlan(
  db: Executor,
  table: TitledTable,
  accountId: number,
  f: object & { q?: string },
  page: { total?: number; limit: number; offset: number },
): Promise<TextPlan> {
  if (page.total === undefined || page.total === 0 || !textOnly(f)) return 'index';
  if ([...f.q].length < MIN_INDEXED_TERM || engineOf(db).trigramCount(table, accountId, f.q) === null) return 'index';
  const rows = await keptCount(db, accountId, table, ['']);
  return ((page.offset + page.limit) * rows) / page.total < page.total ? 'walk' : 'index';
}

/** No filter set: the list (or its status buckets) has a kept count (list_counts) instead of a count of rows. */
export function noFilterSet(filters: object): boolean {
  return Object.values(filters).every((v) => v === undefined || v === null || v === '');
}

/** The sort key: text sorts compare code points on both engines (case-insensitively for titles); `alias` names the rows' table in the query. */
export function titledSortKey(db: Executor, table: TitledTable, sort: string, alias: string = table) {
  if (sort === 'title') return engineOf(db).codePointOrder(`${alias}.title_lc`);
  // Statuses are lower-case ASCII words: every collation orders them by code point, and the plain index serves it.
  return sql.ref(`${alias}.${sort}`);
}

/** A page of a titled list filtered by one status or by nothing: `(accountId, status, limit, offset)`. */
type TitledPage<R> = PreparedQuery<[accountId: number, status: string, limit: number, offset: number], R>;
/** PostgreSQL: a first page of a fixed size with the list's kept total: `(accountId, status, bucket)`. */
type TitledFirstPage<R> = PreparedQuery<[accountId: number, status: string, bucket: string], R>;

const pages = new Map<string, TitledPage<unknown>>();
const firstPages = new Map<string, TitledFirstPage<unknown>>();

/** The ids of a page of `table`'s list filtered by `status` (or by nothing), in the list's order with `id` as the tie-break, read from the index alone. */
function titledPageIds(db: Executor, table: TitledTable, accountId: number, status: string | null, sort: string, direction: 'asc' | 'desc') {
  let ids = (db as unknown as Kysely<AnyTables>).selectFrom(table).select(`${table}.id`).where(`${table}.account_id`, '=', accountId);
  if (status !== null) ids = ids.where(`${table}.status`, '=', status);
  ids = ids.orderBy(titledSortKey(db, table, sort), direction);
  return sort === 'id' ? ids : ids.orderBy(`${table}.id`, direction);
}

type AnyTables = Record<string, Record<string, unknown>>;

/**
 * The page of `table`'s list filtered by one status or by nothing (a board column, and the list most
 * integrations page through) and its total (the list's kept count: list_counts, the whole list or
 * the status's bucket), as prepared queries made once per sort and direction
 * (docs/design.md#prepared-queries): the page's ids from the index alone, then those rows with
 * `columns` (every column of the table), in the list's order with `id` as the tie-break.
 *
 * The total is read first and the page only when the offset is below it, except for a first page of
 * a common size on PostgreSQL: that is one statement (one round trip, one snapshot), the page
 * left-joined to the one-row total, so an empty list still answers its total. Its size is written
 * in and it has no offset, and each id's row is read through a lateral subquery (`limit 1` keeps the
 * planner from folding it into a join that reads the whole table), so the server's estimate of a
 * plan made once (a generic plan) is no higher than its per-execution (custom) plans'; after five
 * executions on a pooled connection it keeps that plan instead of planning each request. Planning
 * this page took longer than running it (docs/performance.md). Other pages keep custom plans, and
 * a page past the end then costs only the total's read. SQLite plans a statement once and has no
 * round trip to save: its two reads cost less than one combined statement.
 */
export async function titledPageWithTotal<R>(
  db: Executor,
  table: TitledTable,
  columns: readonly string[],
  accountId: number,
  status: string | undefined,
  sort: string,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<{ total: number; rows: R[] }> {
  const byStatus = status !== undefined;
  const bucket = byStatus ? `status:${status}` : '';
  const shape = `${table}:${byStatus}:${sort}:${direction}:${columns.join(',')}`;
  if (offset === 0 && FIRST_PAGE_SIZES.has(limit) && engineOf(db).name === 'postgres') {
    const key = `${shape}:${limit}`;
    let first = firstPages.get(key);
    if (!first) {
      first = prepareQuery<[accountId: number, status: string, bucket: string], unknown>((db, accountId, status, bucket) => {
        const any = db as unknown as Kysely<AnyTables>;
        const ids = titledPageIds(db, table, accountId, byStatus ? status : null, sort, direction).limit(sql.lit(limit));
        const rows = any
          .selectFrom(ids.as('i'))
          .innerJoinLateral(
            (eb) =>
              eb
                .selectFrom(table)
                .select(columns.map((c) => `${table}.${c}`))
                .whereRef(`${table}.id`, '=', 'i.id')
                .limit(1)
                .as('d'),
            (join) => join.onTrue(),
          )
          .selectAll('d');
        const total = any
          .selectFrom('list_counts')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
          .where('list_counts.account_id', '=', accountId)
          .where('list_counts.list', '=', table)
          .where('list_counts.bucket', '=', bucket);
        let both = any
          .selectFrom(total.as('t'))
          .leftJoin(rows.as('p'), (join) => join.onTrue())
          .select([...columns.map((c) => `p.${c}`), 't.n as list_total'])
          .orderBy(titledSortKey(db, table, sort, 'p'), direction);
        if (sort !== 'id') both = both.orderBy('p.id', direction);
        return both;
      });
      firstPages.set(key, first);
    }
    const rows = await (first as TitledFirstPage<R & { id: unknown; list_total: number | string }>).rows(db, accountId, status ?? '', bucket);
    // An empty list is one row of nulls that carries the total.
    return { total: Number(rows[0].list_total), rows: rows[0].id === null ? [] : rows };
  }
  let page = pages.get(shape);
  if (!page) {
    page = prepareQuery<[accountId: number, status: string, limit: number, offset: number], unknown>((db, accountId, status, limit, offset) => {
      const ids = titledPageIds(db, table, accountId, byStatus ? status : null, sort, direction)
        .limit(limit)
        .offset(offset);
      let rows = (db as unknown as Kysely<AnyTables>)
        .selectFrom(table)
        .select(columns.map((c) => `${table}.${c}`))
        .where(`${table}.id`, 'in', ids)
        .orderBy(titledSortKey(db, table, sort), direction);
      if (sort !== 'id') rows = rows.orderBy(`${table}.id`, direction);
      return rows;
    });
    pages.set(shape, page);
  }
  const total = await keptCount(db, accountId, table, [bucket]);
  return { total, rows: offset < total ? await (page as TitledPage<R>).rows(db, accountId, status ?? '', limit, offset) : [] };
}
