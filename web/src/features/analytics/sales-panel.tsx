import type { SalesReport } from './reports';
import { formatMoney } from '../../lib/money';
import { changeText, ChartFigure, Figure, FigureList, Panel } from './figures';

type Sales = SalesReport;
const STAGES = ['new', 'qualified', 'proposal', 'negotiation', 'won'] as const;
const STAGE_LABEL = { new: 'New', qualified: 'Qualified', proposal: 'Proposal', negotiation: 'Negotiation', won: 'Won' } as const;

const FIGURES = [
  { key: 'created', label: 'Deals created' },
  { key: 'won', label: 'Won' },
  { key: 'lost', label: 'Lost' },
  { key: 'win_rate', label: 'Win rate', unit: '%' },
] as const;

/** Sales totals with compare deltas, the funnel, lost reasons and the open pipeline (now). */
export function SalesPanel({ report }: { report: Sales }) {
  const c = report.change;
  const funnel = STAGES.map((s) => ({ stage: STAGE_LABEL[s], deals: report.funnel[s] }));
  const pipeline = report.open_pipeline.by_status.map((s) => ({ status: s.status, deals: s.count }));
  return (
    <Panel id="sales" title="Sales">
      <FigureList metric="sales" values={report} changes={c} figures={FIGURES} />
      <div className="grid-2">
        <div>
          <ChartFigure
            caption="Funnel: deals created in the period that reached each stage"
            bars={{ data: funnel, category: 'stage', value: 'deals', color: '#3b5bdb', height: 220, grid: true }}
          />
          <div className="table-wrap">
            <table className="table compact">
              <caption>Funnel</caption>
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  <th scope="col">Deals</th>
                  {c ? <th scope="col">Change</th> : null}
                </tr>
              </thead>
              <tbody>
                {STAGES.map((s) => (
                  <tr key={s} data-metric={`sales.funnel.${s}`}>
                    <th scope="row">{STAGE_LABEL[s]}</th>
                    <td className="num" data-value={report.funnel[s]}>
                      {report.funnel[s]}
                    </td>
                    {c ? <td>{changeText(c.funnel[s])}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div>
          <div className="table-wrap">
            <table className="table compact">
              <caption>Lost reasons in the period</caption>
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Deals</th>
                </tr>
              </thead>
              <tbody>
                {report.lost_reasons.length === 0 ? (
                  <tr>
                    <td colSpan={2}>No deal lost in the period.</td>
                  </tr>
                ) : null}
                {report.lost_reasons.map((r) => (
                  <tr key={`${r.code ?? ''}\u0000${r.label ?? ''}`} data-metric={`sales.lost_reasons.${r.code ?? 'none'}`}>
                    <th scope="row">
                      {r.label ?? 'No reason given'} {r.code ? <span className="muted">({r.code})</span> : null}
                    </th>
                    <td className="num" data-value={r.count}>
                      {r.count}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Open pipeline now</h3>
          <dl className="figures">
            <Figure label="Open deals" value={report.open_pipeline.count} metric="sales.open_pipeline.count" />
            <Figure label="Overdue follow-ups" value={report.open_pipeline.overdue_followups} metric="sales.open_pipeline.overdue_followups" />
            <Figure
              label="No activity in 14 days"
              value={report.open_pipeline.deals_without_activity_14d}
              metric="sales.open_pipeline.deals_without_activity_14d"
            />
          </dl>
          <ChartFigure caption="Open deals by status" bars={{ data: pipeline, category: 'status', value: 'deals', color: '#2f9e44', height: 180 }} />
          <div className="table-wrap">
            <table className="table compact">
              <caption>Open pipeline by status</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Deals</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {report.open_pipeline.by_status.map((s) => (
                  <tr key={s.status} data-metric={`sales.open_pipeline.${s.status}`}>
                    <th scope="row">{s.status}</th>
                    <td className="num" data-value={s.count}>
                      {s.count}
                    </td>
                    <td>{s.values.length === 0 ? '—' : s.values.map((v) => formatMoney(v.value, v.currency)).join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </div>
    </Panel>
  );
}
