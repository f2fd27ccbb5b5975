import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { useOpenHit } from './hit-link';
import { SearchResults } from './search-results';
import { useSearchResults } from './use-search-results';

function typingInAField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/**
 * The global search, on every signed-in page: Ctrl+K (⌘K) anywhere, or "/" outside a text
 * field, opens it; Enter opens the first hit, ↓ moves into the hits; Escape closes it.
 */
export function GlobalSearch() {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const openHit = useOpenHit();
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        setOpen(true);
      } else if (e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingInAField(e.target)) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const t = setTimeout(() => setTyped(q), 150);
    return () => clearTimeout(t);
  }, [q]);
  const results = useSearchResults(typed, 5);
  // Arrow keys move between the hits (links), as in a listbox; Tab works too.
  useEffect(() => {
    const list = listRef.current;
    if (!open || !list) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      const links = [...list.querySelectorAll<HTMLAnchorElement>('a.search-hit')];
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      e.preventDefault();
      links[Math.max(0, Math.min(links.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus();
    };
    list.addEventListener('keydown', onKey);
    return () => list.removeEventListener('keydown', onKey);
  });
  const close = () => setOpen(false);
  // Each opening starts from an empty query.
  useEffect(() => {
    if (open) setQ('');
  }, [open]);
  const first = results.groups.flatMap((g) => g.hits)[0];
  const [openWhenReady, setOpenWhenReady] = useState(false);
  useEffect(() => {
    if (!openWhenReady || typed !== q || results.pending) return;
    setOpenWhenReady(false);
    if (first) {
      setOpen(false);
      openHit(first);
    }
  }, [openWhenReady, typed, q, results.pending, first, openHit]);
  return (
    <>
      <Button className="search-trigger" onClick={() => setOpen(true)} aria-keyshortcuts="Control+K /">
        Search <kbd>Ctrl K</kbd>
      </Button>
      <Dialog title="Search" isOpen={open} onOpenChange={setOpen}>
        <div className="dialog-body search-dialog">
          <label htmlFor="global-search" className="visually-hidden">
            Search organizations, contacts, deals and tickets
          </label>
          <input
            id="global-search"
            type="search"
            autoFocus
            placeholder="Organizations, contacts, deals, tickets"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                // Enter before the last keystrokes were searched: search now, open the first hit when it arrives.
                e.preventDefault();
                setTyped(q);
                setOpenWhenReady(true);
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                listRef.current?.querySelector<HTMLAnchorElement>('a.search-hit')?.focus();
              }
            }}
          />
          <div ref={listRef}>
            <SearchResults q={typed} results={results} onPick={close} />
          </div>
          <p className="muted">
            <a
              href={`/search?q=${encodeURIComponent(q)}`}
              onClick={(e) => {
                e.preventDefault();
                close();
                void navigate({ to: '/search', search: { q } });
              }}
            >
              See more results
            </a>
          </p>
        </div>
      </Dialog>
    </>
  );
}
