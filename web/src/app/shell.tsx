import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { Button } from '../components/button';
import { api, setCsrfToken, unwrap } from '../lib/api';
import { canManage, useSession } from '../lib/session';
import { GlobalSearch } from '../features/search/global-search';

const NAV: { to: string; label: string; admin?: boolean }[] = [
  { to: '/deals', label: 'Deals' },
  { to: '/pipeline', label: 'Pipeline' },
  { to: '/tickets', label: 'Tickets' },
  { to: '/orgs', label: 'Organizations' },
  { to: '/contacts', label: 'Contacts' },
  { to: '/activity', label: 'Activity' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/api-keys', label: 'API keys', admin: true },
  { to: '/team', label: 'Team', admin: true },
];

/** The signed-in frame: skip link, main navigation (by role), who is signed in, Sign out. */
export function Shell() {
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/session')),
    onSettled: () => {
      setCsrfToken(null);
      queryClient.clear();
      queryClient.setQueryData(['session'], null);
      void navigate({ to: '/sign-in', search: {} });
    },
  });
  const links = NAV.filter((item) => !item.admin || canManage(session.user.role));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">custops</span>
        <nav aria-label="Main" className="main-nav">
          <ul>
            {links.map((item) => (
              <li key={item.to}>
                <Link to={item.to} activeProps={{ 'aria-current': 'page', className: 'active' }}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <GlobalSearch />
        <div className="whoami">
          <span className="muted" title={session.user.email}>
            {session.user.display_name} ({session.user.role})
          </span>
          <Button onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
