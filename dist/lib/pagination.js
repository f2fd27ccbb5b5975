export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;
/** Past this, a page number is refused rather than turned into an absurd OFFSET. */
export const MAX_PAGE = 1_000_000;
export function pageOf(query) {
    return { page: query.page ?? 1, per_page: query.per_page ?? DEFAULT_PER_PAGE };
}
export function offsetOf(p) {
    return (p.page - 1) * p.per_page;
}
/** pages = ceil(total / per_page), 0 when empty; has_next = page < pages; has_prev = page > 1. */
export function paginate(p, total) {
    const pages = total === 0 ? 0 : Math.ceil(total / p.per_page);
    return { page: p.page, per_page: p.per_page, total, pages, has_next: p.page < pages, has_prev: p.page > 1 };
}
/**
 * One page of a list: the total, then the rows of the page (not fetched past the end), shaped
 * by `view`. Every list endpoint goes through here, so the arithmetic lives in one place.
 */
export async function listPage(page, count, fetch, view) {
    const total = await count();
    const offset = offsetOf(page);
    const rows = offset < total ? await fetch(page.per_page, offset) : [];
    return { data: await view(rows), pagination: paginate(page, total) };
}
