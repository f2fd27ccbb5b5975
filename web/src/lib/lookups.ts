import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api';
import type { User } from './schemas';

/**
 * The team, read once and shared by every page that names users (owners, authors). A team has
 * at most a few hundred people, so every page of /users is read and kept for five minutes.
 */
export const usersQuery = queryOptions({
  queryKey: ['users', 'all'],
  queryFn: async (): Promise<User[]> => {
    const users: User[] = [];
    for (let page = 1; ; page++) {
      const body = await unwrap(api.GET('/api/v1/users', { params: { query: { per_page: 100, page, sort: 'id', direction: 'asc' } } }));
      users.push(...body.data);
      if (!body.pagination.has_next) return users;
    }
  },
  staleTime: 5 * 60_000,
});

export function useUsers(): User[] {
  return useQuery(usersQuery).data ?? [];
}

/** A user's display name, "Unassigned" for none, "User N" while the team is loading. */
export function useUserName(): (id: number | null | undefined) => string {
  const users = useUsers();
  const byId = new Map(users.map((u) => [u.id, u.display_name]));
  return (id) => (id == null ? 'Unassigned' : (byId.get(id) ?? `User ${id}`));
}

export const orgQuery = (id: number) =>
  queryOptions({
    queryKey: ['org', id],
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
  });

export const contactQuery = (id: number) =>
  queryOptions({
    queryKey: ['contact', id],
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
  });
