import { Link } from '@tanstack/react-router';
import { Page } from '../components/page';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </Page>
  );
}
