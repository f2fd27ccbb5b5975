import { compact, optionalDay, optionalEnum, optionalId } from '../../lib/url-search';

export const SOURCES = ['all', 'timeline', 'support_log'] as const;

/** The feed's filters (GET /activity), as kept in the URL. */
export interface ActivitySearch {
  source?: (typeof SOURCES)[number];
  user_id?: number;
  org_id?: number;
  deal_id?: number;
  ticket_id?: number;
  from?: string;
  to?: string;
  page?: number;
}

export function validateActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  return compact({
    source: optionalEnum(raw.source, SOURCES),
    user_id: optionalId(raw.user_id),
    org_id: optionalId(raw.org_id),
    deal_id: optionalId(raw.deal_id),
    ticket_id: optionalId(raw.ticket_id),
    from: optionalDay(raw.from),
    to: optionalDay(raw.to),
    page: optionalId(raw.page),
  });
}
