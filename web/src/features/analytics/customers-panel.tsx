import { Link } from '@tanstack/react-router';
import type { CustomersReport } from './reports';
import { Figure, FigureList, Panel } from './figures';

type Customers = CustomersReport;
type Row = { org_id: number; name: string; value: number };

const TOTALS = [
  { key: 'customers_with_deals_created', label: 'With deals created' },
  { key: 'customers_with_deals_won', label: 'With deals won' },
  { key: 'customers_with_tickets_created', label: 'With tickets created' },
] as const;

function Ranking({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <div className="table-wrap">
      <table className="table compact">
        <caption>{title}</caption>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td>None.</td>
            </tr>
          ) : null}
          {rows.map((r) => (
            <tr key={r.org_id}>
              <th scope="row">
                <Link to="/orgs/$orgId" params={{ orgId: String(r.org_id) }}>
                  {r.name}
                </Link>
              </th>
              <td className="num">{r.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Customer rankings by facts (no health labels), now and in the period. */
export function CustomersPanel({ report }: { report: Customers }) {
  const c = report.change?.totals;
  return (
    <Panel id="customers" title="Customers">
      <FigureList metric="customers.totals" values={report.totals} changes={c} figures={TOTALS}>
        <Figure
          label="Open support and open deals now"
          value={report.customers_with_open_support_and_open_deals.count}
          metric="customers.customers_with_open_support_and_open_deals.count"
        />
      </FigureList>
      <div className="grid-3">
        <Ranking title="Most deals won" rows={report.rankings.deals_won} />
        <Ranking title="Most activities" rows={report.rankings.activities} />
        <Ranking title="Most tickets created" rows={report.rankings.tickets_created} />
        <Ranking title="Most open deals now" rows={report.now_rankings.open_deals} />
        <Ranking title="Most open tickets now" rows={report.now_rankings.open_tickets} />
      </div>
    </Panel>
  );
}
