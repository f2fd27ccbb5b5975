import type { SupportReport } from './reports';
import { DataTable, EmptyRow } from '../../components/data-table';
import { FigureList, Panel } from './figures';

type Support = SupportReport;

const FIGURES = [
  { key: 'created', label: 'Tickets created' },
  { key: 'closed', label: 'Closed' },
  { key: 'support_updates', label: 'Support updates' },
  { key: 'currently_open', label: 'Open now', now: true },
  { key: 'aged_open', label: 'Open over 7 days', now: true },
] as const;

/** Support totals with deltas, tickets open now and aged open, and the busiest customers. */
export function SupportPanel({ report }: { report: Support }) {
  const c = report.change;
  return (
    <Panel id="support" title="Support">
      <FigureList metric="support" values={report} changes={c} figures={FIGURES} />
      <DataTable
        caption="Customers with the most tickets in the period"
        columns={['Organization', 'Created', 'Closed', 'Updates', 'Open now']}
        className="table compact"
        showCaption
      >
        {report.by_customer.length === 0 ? <EmptyRow columns={5}>No support activity in the period.</EmptyRow> : null}
        {report.by_customer.slice(0, 10).map((r) => (
          <tr key={r.org_id}>
            <th scope="row">{r.name}</th>
            <td className="num">{r.created}</td>
            <td className="num">{r.closed}</td>
            <td className="num">{r.support_updates}</td>
            <td className="num">{r.currently_open}</td>
          </tr>
        ))}
      </DataTable>
    </Panel>
  );
}
