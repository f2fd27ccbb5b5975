import { compact, optionalDay, optionalEnum, optionalId, optionalString } from '../../lib/url-search';
import { DEAL_STATUSES } from '../../lib/schemas';

export const DEAL_SORTS = ['created_at', 'updated_at', 'id', 'title', 'status'] as const;
export const PER_PAGE_CHOICES = [25, 50, 100] as const;

/** Every filter, sort and page of GET /deals, as the deals table keeps them in its URL. */
export interface DealsSearch {
  status?: (typeof DEAL_STATUSES)[number];
  org_id?: number;
  owner_user_id?: number;
  contact_id?: number;
  q?: string;
  created_from?: string;
  created_to?: string;
  updated_from?: string;
  updated_to?: string;
  sort?: (typeof DEAL_SORTS)[number];
  direction?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

export function validateDealsSearch(raw: Record<string, unknown>): DealsSearch {
  const perPage = optionalId(raw.per_page);
  return compact({
    status: optionalEnum(raw.status, DEAL_STATUSES),
    org_id: optionalId(raw.org_id),
    owner_user_id: optionalId(raw.owner_user_id),
    contact_id: optionalId(raw.contact_id),
    q: optionalString(raw.q),
    created_from: optionalDay(raw.created_from),
    created_to: optionalDay(raw.created_to),
    updated_from: optionalDay(raw.updated_from),
    updated_to: optionalDay(raw.updated_to),
    sort: optionalEnum(raw.sort, DEAL_SORTS),
    direction: optionalEnum(raw.direction, ['asc', 'desc'] as const),
    page: optionalId(raw.page),
    per_page: perPage !== undefined && perPage <= 100 ? perPage : undefined,
  });
}
