import { Link, useNavigate } from '@tanstack/react-router';
import type { SearchHit } from './use-search-results';

/** The page of a hit: each kind has its own typed route. */
export function HitLink({ hit, onClick }: { hit: SearchHit; onClick?: () => void }) {
  const props = { className: 'search-hit', onClick, children: hit.title };
  const id = String(hit.id);
  switch (hit.kind) {
    case 'Organization':
      return <Link to="/orgs/$orgId" params={{ orgId: id }} {...props} />;
    case 'Contact':
      return <Link to="/contacts/$contactId" params={{ contactId: id }} {...props} />;
    case 'Deal':
      return <Link to="/deals/$dealId" params={{ dealId: id }} {...props} />;
    case 'Ticket':
      return <Link to="/tickets/$ticketId" params={{ ticketId: id }} {...props} />;
  }
}

export function useOpenHit(): (hit: SearchHit) => void {
  const navigate = useNavigate();
  return (hit) => {
    const id = String(hit.id);
    if (hit.kind === 'Organization') void navigate({ to: '/orgs/$orgId', params: { orgId: id } });
    else if (hit.kind === 'Contact') void navigate({ to: '/contacts/$contactId', params: { contactId: id } });
    else if (hit.kind === 'Deal') void navigate({ to: '/deals/$dealId', params: { dealId: id } });
    else void navigate({ to: '/tickets/$ticketId', params: { ticketId: id } });
  };
}
