import { Button } from './button';

interface Pagination {
  page: number;
  pages: number;
  total: number;
  has_next: boolean;
  has_prev: boolean;
}

/** Previous / next for a list answer's pagination; the page lives in the URL. */
export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  if (pagination.pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button disabled={!pagination.has_prev} onClick={() => onPage(pagination.page - 1)}>
        Previous page
      </Button>
      <span>
        Page {pagination.page} of {pagination.pages} ({pagination.total})
      </span>
      <Button disabled={!pagination.has_next} onClick={() => onPage(pagination.page + 1)}>
        Next page
      </Button>
    </nav>
  );
}
