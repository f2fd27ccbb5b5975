import { Link, type LinkOptions } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Empty, ErrorState, Loading } from './states';

/**
 * A section of a record page showing the first page of a list related to the record (`of`, as
 * named in the link text): the list's total in its heading and, when there are more than that
 * page holds, the link to the whole list (`all`, e.g. the list page filtered by the record).
 */
export function Preview<T>({
  title,
  of,
  query,
  all,
  children,
}: {
  title: string;
  of: string;
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data?: { data: T[]; pagination: { total: number; has_next: boolean } };
    refetch: () => unknown;
  };
  all?: LinkOptions;
  children: (items: T[]) => ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>
        {title} {query.data ? <span className="count">{query.data.pagination.total.toLocaleString()}</span> : null}
      </h2>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? query.data.data.length === 0 ? <Empty>No {title.toLowerCase()}.</Empty> : children(query.data.data) : null}
      {all && query.data?.pagination.has_next ? (
        <Link {...all}>
          All {title.toLowerCase()} of {of}
        </Link>
      ) : null}
    </section>
  );
}
