import type { SupportReport } from './reports';
import { Figure } from './figures';

type Support = SupportReport;

/** Support totals with deltas, tickets open now and aged open, and the busiest customers. */
export function SupportPanel({ report }: { report: Support }) {
  const c = report.change;
  return (
    <section aria-labelledby="support-heading" className="panel">
      <h2 id="support-heading">Support</h2>
      <dl className="figures">
        <Figure label="Tickets created" value={report.created} metric="support.created" change={c?.created} />
        <Figure label="Closed" value={report.closed} metric="support.closed" change={c?.closed} />
        <Figure label="Support updates" value={report.support_updates} metric="support.support_updates" change={c?.support_updates} />
        <Figure label="Open now" value={report.currently_open} metric="support.currently_open" />
        <Figure label="Open over 7 days" value={report.aged_open} metric="support.aged_open" />
      </dl>
      <div className="table-wrap"><table className="table compact">
        <caption>Customers with the most tickets in the period</caption>
        <thead><tr><th scope="col">Organization</th><th scope="col">Created</th><th scope="col">Closed</th><th scope="col">Updates</th><th scope="col">Open now</th></tr></thead>
        <tbody>
          {report.by_customer.length === 0 ? <tr><td colSpan={5}>No support activity in the period.</td></tr> : null}
          {report.by_customer.slice(0, 10).map((r) => (
            <tr key={r.org_id}><th scope="row">{r.name}</th><td className="num">{r.created}</td><td className="num">{r.closed}</td><td className="num">{r.support_updates}</td><td className="num">{r.currently_open}</td></tr>
          ))}
        </tbody>
      </table></div>
    </section>
  );
}
