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
export declare const DEFAULT_PER_PAGE = 25;
export declare const MAX_PER_PAGE = 100;
/** Past this, a page number is refused rather than turned into an absurd OFFSET. */
export declare const MAX_PAGE = 1000000;
export declare function pageOf(query: {
    page?: number;
    per_page?: number;
}): PageRequest;
export declare function offsetOf(p: PageRequest): number;
/** pages = ceil(total / per_page), 0 when empty; has_next = page < pages; has_prev = page > 1. */
export declare function paginate(p: PageRequest, total: number): Pagination;
export interface ListResult<T> {
    data: T[];
    pagination: Pagination;
}
/**
 * One page of a list: the total, then the rows of the page (not fetched past the end), shaped
 * by `view`. Every list endpoint goes through here, so the arithmetic lives in one place.
 */
export declare function listPage<Row, View>(page: PageRequest, count: () => Promise<number>, fetch: (limit: number, offset: number) => Promise<Row[]>, view: (rows: Row[]) => View[] | Promise<View[]>): Promise<ListResult<View>>;
