import { compact, optionalDay, optionalEnum, optionalId, optionalString } from '../../lib/url-search';

export const TICKET_VIEWS = ['open', 'pending', 'closed', 'mine', 'all'] as const;
export type TicketView = (typeof TICKET_VIEWS)[number];
export const TICKET_SORTS = ['created_at', 'updated_at', 'id', 'title', 'status'] as const;

/** The tickets views and every filter and sort of GET /support/tickets, as kept in the URL. */
export interface TicketsSearch {
  view?: TicketView;
  org_id?: number;
  owner_user_id?: number;
  q?: string;
  created_from?: string;
  created_to?: string;
  sort?: (typeof TICKET_SORTS)[number];
  direction?: 'asc' | 'desc';
  page?: number;
}

export function validateTicketsSearch(raw: Record<string, unknown>): TicketsSearch {
  return compact({
    view: optionalEnum(raw.view, TICKET_VIEWS),
    org_id: optionalId(raw.org_id),
    owner_user_id: optionalId(raw.owner_user_id),
    q: optionalString(raw.q),
    created_from: optionalDay(raw.created_from),
    created_to: optionalDay(raw.created_to),
    sort: optionalEnum(raw.sort, TICKET_SORTS),
    direction: optionalEnum(raw.direction, ['asc', 'desc'] as const),
    page: optionalId(raw.page),
  });
}

/** The API query of a view: "mine" is the signed-in user's tickets that are not closed. */
export function ticketsQuery(search: TicketsSearch, me: number) {
  const view = search.view ?? 'open';
  const { view: _view, ...rest } = search;
  if (view === 'mine') return { ...rest, owner_user_id: me, open_only: '1' as const };
  if (view === 'all') return rest;
  return { ...rest, status: view };
}
