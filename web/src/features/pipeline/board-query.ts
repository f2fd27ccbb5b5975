import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import type { DealStatus } from '../../lib/schemas';

export interface BoardFilters {
  owner?: number;
  org?: number;
  q?: string;
}

const PAGE = 20;

/**
 * One status column's deals, a page at a time (GET /deals?status=…, 20 per page, most recently
 * updated first), so the board's first paint costs six small pages however many deals the
 * account has. The route's loader starts the six first pages while the board's code loads.
 */
export const boardColumnQuery = (status: DealStatus, filters: BoardFilters) =>
  infiniteQueryOptions({
    queryKey: ['deals', 'board', status, filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/deals', {
          params: {
            query: {
              status,
              owner_user_id: filters.owner,
              org_id: filters.org,
              q: filters.q,
              sort: 'updated_at',
              direction: 'desc',
              per_page: PAGE,
              page: pageParam,
            },
          },
        }),
      ),
    // Fresh for 5 s, so the board mounting right after the loader's fetch does not ask again; moves invalidate ['deals'].
    staleTime: 5_000,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.has_next ? last.pagination.page + 1 : undefined),
  });
