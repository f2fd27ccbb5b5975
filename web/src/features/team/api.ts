import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import type { Role } from '../../lib/types';

export function useTeam(page: number) {
  return useQuery({
    queryKey: ['team', page],
    queryFn: () => unwrap(api.GET('/api/v1/users', { params: { query: { page, per_page: 100, sort: 'created_at', direction: 'asc' } } })),
  });
}

export function useAddUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; display_name: string; role: Role; password: string; support_enabled: boolean }) =>
      unwrap(api.POST('/api/v1/users', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['team'] }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number; role?: Role; is_active?: boolean; support_enabled?: boolean; display_name?: string }) =>
      unwrap(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['team'] }),
  });
}
