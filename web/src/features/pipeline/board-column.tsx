import { useDroppable } from '@dnd-kit/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from '../../components/button';
import { Empty, ErrorState, Loading } from '../../components/states';
import { useUserName } from '../../lib/lookups';
import { STATUS_LABEL, type Deal, type DealStatus } from '../../lib/schemas';
import { boardColumnQuery, type BoardFilters } from './board-query';
import { DealCard } from './deal-card';

/** One status column: its deals (boardColumnQuery), a "Show more" for the next page. */
export function BoardColumn({
  status,
  filters,
  onMove,
  movingId,
  now,
}: {
  status: DealStatus;
  filters: BoardFilters;
  onMove: (deal: Deal, to: DealStatus) => void;
  movingId: number | null;
  now: number;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const userName = useUserName();
  const deals = useInfiniteQuery(boardColumnQuery(status, filters));
  const headingId = `column-${status}`;
  const total = deals.data?.pages[0]?.pagination.total;
  const cards = deals.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section ref={setNodeRef} className={`board-column${isOver ? ' over' : ''}`} aria-labelledby={headingId} data-status={status}>
      <h2 id={headingId} className="column-title">
        {STATUS_LABEL[status]} <span className="count">{total === undefined ? '' : total.toLocaleString()}</span>
      </h2>
      {deals.isPending ? <Loading label={`Loading ${STATUS_LABEL[status].toLowerCase()} deals…`} /> : null}
      {deals.isError ? <ErrorState error={deals.error} onRetry={() => void deals.refetch()} /> : null}
      {deals.isSuccess && cards.length === 0 ? <Empty>No deals.</Empty> : null}
      <ul className="cards" aria-label={`${STATUS_LABEL[status]} deals`}>
        {cards.map((deal) => (
          <DealCard key={deal.id} deal={deal} ownerName={userName(deal.owner_user_id)} onMove={onMove} moving={movingId === deal.id} now={now} />
        ))}
      </ul>
      {deals.hasNextPage ? (
        <Button
          onClick={() => void deals.fetchNextPage()}
          disabled={deals.isFetchingNextPage}
          aria-label={`Show more ${STATUS_LABEL[status].toLowerCase()} deals`}
        >
          {deals.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </Button>
      ) : null}
    </section>
  );
}
