import type { TrendsReport } from './reports';
import { ChartFigure, Figure, Panel } from './figures';

type Trends = TrendsReport;
const SERIES = [
  ['deals_created', 'Deals created', '#3b5bdb'],
  ['deals_won', 'Won', '#2f9e44'],
  ['deals_lost', 'Lost', '#e03131'],
  ['activities', 'Activities', '#f08c00'],
  ['tickets_created', 'Tickets created', '#7048e8'],
  ['tickets_closed', 'Tickets closed', '#0c8599'],
] as const;

/** ISO-week trends as lines, with the same numbers in a table. */
export function TrendsPanel({ report }: { report: Trends }) {
  return (
    <Panel id="trends" title="Weekly trends">
      <ChartFigure caption="Per ISO week" lines={{ data: report.weeks, category: 'week', series: SERIES, height: 260 }} />
      <dl className="figures">
        {SERIES.map(([k, label]) => (
          <Figure key={k} label={label} value={report.totals[k]} metric={`trends.totals.${k}`} change={report.change?.totals[k]} />
        ))}
        <Figure label="Support logs" value={report.totals.support_logs} metric="trends.totals.support_logs" change={report.change?.totals.support_logs} />
      </dl>
      <details>
        <summary>Every week's figures</summary>
        <div className="table-wrap">
          <table className="table compact">
            <caption className="visually-hidden">Weekly figures</caption>
            <thead>
              <tr>
                <th scope="col">Week</th>
                {SERIES.map(([k, label]) => (
                  <th key={k} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">Support logs</th>
              </tr>
            </thead>
            <tbody>
              {report.weeks.map((w) => (
                <tr key={w.week}>
                  <th scope="row">{w.week}</th>
                  {SERIES.map(([k]) => (
                    <td key={k} className="num">
                      {w[k]}
                    </td>
                  ))}
                  <td className="num">{w.support_logs}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                {SERIES.map(([k]) => (
                  <td key={k} className="num">
                    {report.totals[k]}
                  </td>
                ))}
                <td className="num">{report.totals.support_logs}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </details>
    </Panel>
  );
}
