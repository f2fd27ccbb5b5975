import '../../lib/react-aria-csp';
import { useDraggable } from '@dnd-kit/core';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';
import { daysSince, formatMoney } from '../../lib/money';
import { DEAL_STATUSES, STATUS_LABEL, type Deal, type DealStatus } from '../../lib/schemas';
import { formatDateTime } from '../../lib/format';

/**
 * One deal on the board. It is dragged by its handle (pointer, or Space and the arrow keys
 * through dnd-kit's keyboard sensor), or moved with the "Move" menu: the plain keyboard way.
 */
export function DealCard({
  deal,
  ownerName,
  onMove,
  moving,
  now,
}: {
  deal: Deal;
  ownerName: string;
  onMove: (deal: Deal, to: DealStatus) => void;
  moving: boolean;
  now: number;
}) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: deal.id, data: { deal } });
  const open = deal.status !== 'won' && deal.status !== 'lost';
  const overdue = open && deal.next_followup_at !== null && new Date(deal.next_followup_at).getTime() < now;
  const idle = daysSince(deal.last_activity_at, now);
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined;
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={['card', isDragging ? 'dragging' : '', moving ? 'moving' : ''].join(' ')}
      aria-busy={moving || undefined}
      data-deal-id={deal.id}
    >
      <div className="card-top">
        <button type="button" className="drag-handle" aria-label={`Drag ${deal.title}`} {...attributes} {...listeners}>
          ⠿
        </button>
        <Link to="/deals/$dealId" params={{ dealId: String(deal.id) }} className="card-title">
          {deal.title}
        </Link>
      </div>
      <dl className="card-facts">
        <div>
          <dt>Value</dt>
          <dd>{formatMoney(deal.value, deal.currency)}</dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>{ownerName}</dd>
        </div>
        <div>
          <dt>Next follow-up</dt>
          <dd className={overdue ? 'overdue' : undefined}>
            {deal.next_followup_at ? formatDateTime(deal.next_followup_at) : 'None'}
            {overdue ? <strong className="badge badge-danger"> Overdue</strong> : null}
          </dd>
        </div>
        <div>
          <dt>Last activity</dt>
          <dd>{idle === 0 ? 'Today' : idle === 1 ? '1 day ago' : `${idle} days ago`}</dd>
        </div>
      </dl>
      <MoveMenu deal={deal} onMove={onMove} />
    </li>
  );
}

/**
 * The card's "Move…" menu button. The React Aria menu (and its popover) is mounted only while
 * open: a board shows 120 cards, and a menu trigger on each was most of the board's render. The
 * plain button says what it opens (aria-haspopup, aria-expanded), opens on a click, Enter, Space
 * or the arrow keys, and gets the focus back when the menu closes (as React Aria's MenuTrigger
 * would do).
 */
function MoveMenu({ deal, onMove }: { deal: Deal; onMove: (deal: Deal, to: DealStatus) => void }) {
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const label = `Move ${deal.title}`;
  // Focus goes back to the button, unless the user has put it elsewhere (a click outside the menu).
  const close = () => {
    const active = document.activeElement;
    if (!active || active === document.body || popover.current?.contains(active)) trigger.current?.focus();
    setOpen(false);
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="btn btn-secondary btn-small"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            // Already open with the focus still here (the menu can mount before its popover is
            // placed, when focusing an item does nothing): the arrow takes the focus into the menu.
            const items = popover.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])');
            if (open && items?.length) items[e.key === 'ArrowDown' ? 0 : items.length - 1]!.focus();
            else setOpen(true);
          }
        }}
      >
        Move…
      </button>
      {open ? (
        <Popover
          ref={popover}
          className="popover"
          triggerRef={trigger}
          isOpen
          onOpenChange={(next) => (next ? setOpen(true) : close())}
          placement="bottom start"
        >
          <Menu
            className="menu"
            aria-label={label}
            autoFocus="first"
            disabledKeys={[deal.status]}
            onAction={(key) => {
              close();
              onMove(deal, key as DealStatus);
            }}
          >
            {DEAL_STATUSES.map((s) => (
              <MenuItem key={s} id={s} className="menu-item">
                {`To ${STATUS_LABEL[s]}`}
              </MenuItem>
            ))}
          </Menu>
        </Popover>
      ) : null}
    </>
  );
}
