import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api';
import type { Scope } from '../../lib/types';

export function useApiKeys(page: number) {
  return useQuery({
    queryKey: ['api-keys', page],
    queryFn: () => unwrap(api.GET('/api/v1/api-keys', { params: { query: { page, per_page: 50 } } })),
  });
}

export function useCreateKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; scopes: Scope[]; rate_limit_per_minute: number | null }) => unwrap(api.POST('/api/v1/api-keys', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}

export function useRevokeKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/api/v1/api-keys/{id}/revoke', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
