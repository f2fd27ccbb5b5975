import type { ReactNode } from 'react';

/** An empty column heading: the column of each row's action buttons, named for screen readers only. */
export const ACTIONS_COLUMN = <span className="visually-hidden">Actions</span>;

/**
 * A table of records: scrolls sideways on its own when narrow, one heading a column, and a caption
 * for screen readers (shown too with `showCaption`, as the dashboard's report tables do).
 */
export function DataTable({
  caption,
  columns,
  children,
  className,
  showCaption = false,
}: {
  caption: ReactNode;
  columns: ReactNode[];
  children: ReactNode;
  className?: string;
  showCaption?: boolean;
}) {
  return (
    <div className="table-wrap">
      <table className={className}>
        <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a table
              <th key={i} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The one row of a table body that has no record to show, saying why across every column. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns}>{children}</td>
    </tr>
  );
}
