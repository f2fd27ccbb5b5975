import { DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { Alert } from '../../components/alert';
import { FilterForm } from '../../components/filter-form';
import { LostReasonDialog } from '../../components/lost-reason-dialog';
import { UserFilter } from '../../components/user-filter';
import { OrgPicker } from '../../components/org-picker';
import { Page } from '../../components/page';
import { TextField } from '../../components/field';
import { useMoveDeal } from '../../lib/deal-moves';
import { DEAL_STATUSES, STATUS_LABEL, type Deal, type DealStatus } from '../../lib/schemas';
import { compact } from '../../lib/url-search';
import { BoardColumn } from './board-column';

const route = getRouteApi('/signed-in/pipeline');

const statusOf = (id: unknown) => ((DEAL_STATUSES as readonly unknown[]).includes(id) ? (id as DealStatus) : null);

/** What screen readers hear while a card is dragged with the keyboard. */
const announcements: Announcements = {
  onDragStart: ({ active }) =>
    `Picked up ${(active.data.current?.deal as Deal | undefined)?.title ?? 'the deal'}. Use the arrow keys to move it over a column, Space to drop, Escape to cancel.`,
  onDragOver: ({ over }) => (statusOf(over?.id) ? `Over the ${STATUS_LABEL[statusOf(over?.id)!]} column.` : 'Not over a column.'),
  onDragEnd: ({ over }) => (statusOf(over?.id) ? `Dropped on ${STATUS_LABEL[statusOf(over?.id)!]}.` : 'Dropped outside the columns; nothing changed.'),
  onDragCancel: () => 'Moving cancelled; nothing changed.',
};

/** The pipeline: deals as cards in one column per status; moving a card changes the deal's status. */
export function BoardPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const move = useMoveDeal();
  const [losing, setLosing] = useState<Deal | null>(null);
  const [qInput, setQInput] = useState(search.q ?? '');
  const [now] = useState(() => Date.now());
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));
  const filters = { owner: search.owner, org: search.org, q: search.q };
  const setFilters = (next: Partial<typeof filters>) => void navigate({ search: (prev) => compact({ ...prev, ...next }), replace: true });

  const requestMove = (deal: Deal, to: DealStatus) => {
    if (to === deal.status) return;
    if (to === 'lost') {
      move.reset();
      setLosing(deal);
      return;
    }
    move.mutate({ deal, to });
  };
  const onDragEnd = (e: DragEndEvent) => {
    const to = statusOf(e.over?.id);
    const deal = e.active.data.current?.deal as Deal | undefined;
    if (to && deal) requestMove(deal, to);
  };

  return (
    <Page title="Pipeline">
      <FilterForm label="Filter the board" onSubmit={() => setFilters({ q: qInput.trim() || undefined })}>
        <UserFilter value={search.owner} onChange={(owner) => setFilters({ owner })} />
        <OrgPicker value={search.org} onChange={(org) => setFilters({ org })} />
        <TextField
          label="Title contains"
          type="search"
          value={qInput}
          onChange={(e) => setQInput(e.target.value)}
          onBlur={() => setFilters({ q: qInput.trim() || undefined })}
        />
      </FilterForm>
      {move.isError && !losing ? <Alert>Could not move the deal: {move.error.message}. The board shows the saved state.</Alert> : null}
      {move.isSuccess ? (
        <Alert tone="success">
          Moved “{move.data.title}” to {STATUS_LABEL[move.data.status]}.
        </Alert>
      ) : null}
      <DndContext sensors={sensors} onDragEnd={onDragEnd} accessibility={{ announcements }}>
        <div className="board">
          {DEAL_STATUSES.map((status) => (
            <BoardColumn
              key={status}
              status={status}
              filters={filters}
              onMove={requestMove}
              movingId={move.isPending ? move.variables.deal.id : null}
              now={now}
            />
          ))}
        </div>
      </DndContext>
      <LostReasonDialog
        dealTitle={losing?.title ?? ''}
        isOpen={losing !== null}
        onCancel={() => setLosing(null)}
        pending={move.isPending}
        error={losing ? move.error : null}
        onSubmit={(lostReason) => {
          if (!losing) return;
          move.mutate({ deal: losing, to: 'lost', lostReason }, { onSuccess: () => setLosing(null) });
        }}
      />
    </Page>
  );
}
