import { queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '../../../src/client/index.ts';
import { api, ApiError, setCsrfToken } from './api';

export type Session = paths['/api/v1/session']['get']['responses'][200]['content']['application/json'];
export type Role = Session['user']['role'];

/** The signed-in session, or null when signed out (GET /api/v1/session answers 401). */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Session | null> => {
    const { data, response } = await api.GET('/api/v1/session');
    if (response.status === 401) {
      setCsrfToken(null);
      return null;
    }
    if (!data) throw new ApiError(response.status, null);
    setCsrfToken(data.csrf_token);
    return data;
  },
  staleTime: 60_000,
});

export function useSession(): Session {
  const { data } = useQuery(sessionQuery);
  // The signed-in layout loads the session before rendering, so it is present below it.
  if (!data) throw new Error('useSession used outside the signed-in layout');
  return data;
}

/** The first page of the navigation: where `/` and signing in lead. */
export const START_PAGE = '/deals';

export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
