export interface PageRequest {
  page: number;
  per_page: number;
}

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  pages: number;
  has_next: boolean;
  has_prev: boolean;
}

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;
/** Past this, a page number is refused rather than turned into an absurd OFFSET. */
export const MAX_PAGE = 1_000_000;

export function pageOf(query: { page?: number; per_page?: number }): PageRequest {
  return { page: query.page ?? 1, per_page: query.per_page ?? DEFAULT_PER_PAGE };
}

export function offsetOf(p: PageRequest): number {
  return (p.page - 1) * p.per_page;
}

/** pages = ceil(total / per_page), 0 when empty; has_next = page < pages; has_prev = page > 1. */
export function paginate(p: PageRequest, total: number): Pagination {
  const pages = total === 0 ? 0 : Math.ceil(total / p.per_page);
  return { page: p.page, per_page: p.per_page, total, pages, has_next: p.page < pages, has_prev: p.page > 1 };
}

export interface ListResult<T> {
  data: T[];
  pagination: Pagination;
}

/**
 * One page of a list: the total, then the rows of the page (not fetched past the end), shaped
 * by `view`. Every list endpoint goes through here, so the arithmetic lives in one place.
 */
export async function listPage<Row, View>(
  page: PageRequest,
  count: () => Promise<number>,
  /** One page of rows; `total` (the count's answer) lets a search choose how to find the page. */
  fetch: (limit: number, offset: number, total: number) => Promise<Row[]>,
  view: (rows: Row[]) => View[] | Promise<View[]>,
  /** The page and the total read together (one statement), where the filter has such a read; null where it has not. */
  together?: (limit: number, offset: number) => Promise<{ total: number; rows: Row[] }> | null,
): Promise<ListResult<View>> {
  const offset = offsetOf(page);
  const both = together?.(page.per_page, offset);
  if (both) {
    const { total, rows } = await both;
    return { data: await view(rows), pagination: paginate(page, total) };
  }
  const total = await count();
  const rows = offset < total ? await fetch(page.per_page, offset, total) : [];
  return { data: await view(rows), pagination: paginate(page, total) };
}

export interface EntryOrder<S extends string> {
  sort?: S;
  direction?: 'asc' | 'desc';
}

/**
 * One page of a record's entries (a deal's activities, a ticket's logs): by `created_at`, newest
 * first, unless the query orders them otherwise.
 */
export function entriesPage<Row, View, S extends string>(
  page: PageRequest,
  order: EntryOrder<S>,
  entries: {
    count: () => Promise<number>;
    list: (sort: S | 'created_at', direction: 'asc' | 'desc', limit: number, offset: number) => Promise<Row[]>;
    view: (row: Row) => View;
  },
): Promise<ListResult<View>> {
  const sort = order.sort ?? 'created_at';
  const direction = order.direction ?? 'desc';
  return listPage(
    page,
    entries.count,
    (limit, offset) => entries.list(sort, direction, limit, offset),
    (rows) => rows.map(entries.view),
  );
}
