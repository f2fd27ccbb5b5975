import type { SalesReport } from './reports';
import { DataTable, EmptyRow } from '../../components/data-table';
import { formatMoney } from '../../lib/money';
import { changeText, ChartFigure, FigureList, Panel } from './figures';

type Sales = SalesReport;
const STAGES = ['new', 'qualified', 'proposal', 'negotiation', 'won'] as const;
const STAGE_LABEL = { new: 'New', qualified: 'Qualified', proposal: 'Proposal', negotiation: 'Negotiation', won: 'Won' } as const;

const FIGURES = [
  { key: 'created', label: 'Deals created' },
  { key: 'won', label: 'Won' },
  { key: 'lost', label: 'Lost' },
  { key: 'win_rate', label: 'Win rate', unit: '%' },
] as const;

const OPEN_PIPELINE = [
  { key: 'count', label: 'Open deals' },
  { key: 'overdue_followups', label: 'Overdue follow-ups' },
  { key: 'deals_without_activity_14d', label: 'No activity in 14 days' },
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
          <DataTable caption="Funnel" columns={c ? ['Stage', 'Deals', 'Change'] : ['Stage', 'Deals']} className="table compact" showCaption>
            {STAGES.map((s) => (
              <tr key={s} data-metric={`sales.funnel.${s}`}>
                <th scope="row">{STAGE_LABEL[s]}</th>
                <td className="num" data-value={report.funnel[s]}>
                  {report.funnel[s]}
                </td>
                {c ? <td>{changeText(c.funnel[s])}</td> : null}
              </tr>
            ))}
          </DataTable>
        </div>
        <div>
          <DataTable caption="Lost reasons in the period" columns={['Reason', 'Deals']} className="table compact" showCaption>
            {report.lost_reasons.length === 0 ? <EmptyRow columns={2}>No deal lost in the period.</EmptyRow> : null}
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
          </DataTable>
          <h3>Open pipeline now</h3>
          <FigureList metric="sales.open_pipeline" values={report.open_pipeline} changes={null} figures={OPEN_PIPELINE} />
          <ChartFigure caption="Open deals by status" bars={{ data: pipeline, category: 'status', value: 'deals', color: '#2f9e44', height: 180 }} />
          <DataTable caption="Open pipeline by status" columns={['Status', 'Deals', 'Value']} className="table compact" showCaption>
            {report.open_pipeline.by_status.map((s) => (
              <tr key={s.status} data-metric={`sales.open_pipeline.${s.status}`}>
                <th scope="row">{s.status}</th>
                <td className="num" data-value={s.count}>
                  {s.count}
                </td>
                <td>{s.values.length === 0 ? '—' : s.values.map((v) => formatMoney(v.value, v.currency)).join(', ')}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      </div>
    </Panel>
  );
}
