import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './api';
import type { Deal, DealStatus } from './schemas';

export interface Move {
  deal: Deal;
  to: DealStatus;
  lostReason?: { code: string; label: string };
}

/**
 * Moves a deal to another status through PATCH /deals/{id} (the server records the history and
 * emits deal.won / deal.lost), then refreshes every list and page that shows deals.
 */
export function useMoveDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deal, to, lostReason }: Move) =>
      unwrap(
        api.PATCH('/api/v1/deals/{id}', {
          params: { path: { id: deal.id } },
          body: to === 'lost' && lostReason ? { status: to, lost_reason: lostReason } : { status: to },
        }),
      ),
    onSuccess: (deal) => {
      queryClient.setQueryData(['deal', deal.id], deal);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['deals'] }),
        queryClient.invalidateQueries({ queryKey: ['deal'] }),
        queryClient.invalidateQueries({ queryKey: ['lost-reasons'] }),
      ]),
  });
}
