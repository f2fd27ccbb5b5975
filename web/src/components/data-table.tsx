import type { ReactNode } from 'react';

/** An empty column heading: the column of each row's action buttons, named for screen readers only. */
export const ACTIONS_COLUMN = <span className="visually-hidden">Actions</span>;

/** A table of records: scrolls sideways on its own when narrow, a caption for screen readers, one heading a column. */
export function DataTable({ caption, columns, children }: { caption: string; columns: ReactNode[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
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
