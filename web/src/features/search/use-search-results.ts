import { useQueries } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import { contactName } from '../../lib/format';

export interface SearchHit {
  kind: 'Organization' | 'Contact' | 'Deal' | 'Ticket';
  id: number;
  title: string;
  detail: string;
}

/**
 * Searches orgs, contacts, deals and tickets at once: the four list endpoints with `q`, read in
 * parallel (each is an indexed substring match), `perKind` of each.
 */
export function useSearchResults(q: string, perKind: number) {
  const enabled = q.trim().length > 0;
  const query = { q: q.trim(), per_page: perKind };
  const results = useQueries({
    queries: [
      { queryKey: ['search', 'orgs', query], queryFn: () => unwrap(api.GET('/api/v1/orgs', { params: { query } })), enabled },
      { queryKey: ['search', 'contacts', query], queryFn: () => unwrap(api.GET('/api/v1/contacts', { params: { query } })), enabled },
      {
        queryKey: ['search', 'deals', query],
        queryFn: () => unwrap(api.GET('/api/v1/deals', { params: { query: { ...query, sort: 'updated_at' } } })),
        enabled,
      },
      {
        queryKey: ['search', 'tickets', query],
        queryFn: () => unwrap(api.GET('/api/v1/support/tickets', { params: { query: { ...query, sort: 'updated_at' } } })),
        enabled,
      },
    ],
  });
  const [orgs, contacts, deals, tickets] = results;
  const groups: { kind: SearchHit['kind']; total: number; hits: SearchHit[] }[] = [
    {
      kind: 'Organization',
      total: orgs.data?.pagination.total ?? 0,
      hits: (orgs.data?.data ?? []).map((o) => ({ kind: 'Organization', id: o.id, title: o.name, detail: o.domain ?? '' })),
    },
    {
      kind: 'Contact',
      total: contacts.data?.pagination.total ?? 0,
      hits: (contacts.data?.data ?? []).map((c) => ({ kind: 'Contact', id: c.id, title: contactName(c), detail: c.email ?? '' })),
    },
    {
      kind: 'Deal',
      total: deals.data?.pagination.total ?? 0,
      hits: (deals.data?.data ?? []).map((d) => ({ kind: 'Deal', id: d.id, title: d.title, detail: d.status })),
    },
    {
      kind: 'Ticket',
      total: tickets.data?.pagination.total ?? 0,
      hits: (tickets.data?.data ?? []).map((t) => ({ kind: 'Ticket', id: t.id, title: t.title, detail: t.status })),
    },
  ];
  return {
    groups,
    pending: enabled && results.some((r) => r.isPending),
    error: results.find((r) => r.isError)?.error ?? null,
  };
}
