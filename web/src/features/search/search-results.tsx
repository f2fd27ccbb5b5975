import { Empty, ErrorState, Loading } from '../../components/states';
import { HitLink } from './hit-link';
import type { useSearchResults } from './use-search-results';

const PLURAL = { Organization: 'Organizations', Contact: 'Contacts', Deal: 'Deals', Ticket: 'Tickets' } as const;

/** Search hits grouped by kind, each a link; `onPick` runs when one is followed (to close a dialog). */
export function SearchResults({ q, results, onPick }: { q: string; results: ReturnType<typeof useSearchResults>; onPick?: () => void }) {
  if (!q.trim()) return <p className="muted">Type a name, title or e-mail.</p>;
  if (results.error) return <ErrorState error={results.error} />;
  if (results.pending) return <Loading label="Searching…" />;
  if (results.groups.every((g) => g.hits.length === 0)) return <Empty>Nothing matches “{q}”.</Empty>;
  return (
    <div className="search-results">
      {results.groups
        .filter((g) => g.hits.length > 0)
        .map((g) => (
          <section key={g.kind} aria-label={PLURAL[g.kind]}>
            <h3>
              {PLURAL[g.kind]} <span className="count">{g.total.toLocaleString()}</span>
            </h3>
            <ul className="plain-list">
              {g.hits.map((h) => (
                <li key={h.id}>
                  <HitLink hit={h} onClick={onPick} />
                  {h.detail ? <span className="muted"> · {h.detail}</span> : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}
