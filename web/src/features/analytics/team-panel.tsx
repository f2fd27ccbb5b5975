import type { TeamReport } from './reports';
import { changeText, Panel } from './figures';

type Team = TeamReport;
const FACTS = [
  ['deals_created', 'Deals created'],
  ['deals_won', 'Won'],
  ['deals_lost', 'Lost'],
  ['activities', 'Activities'],
  ['tickets_closed', 'Tickets closed'],
  ['support_logs', 'Support logs'],
] as const;

/** The team table: every user's totals of the period, and the account's totals (with change). */
export function TeamPanel({ report }: { report: Team }) {
  return (
    <Panel id="team" title="Team">
      <div className="table-wrap">
        <table className="table compact">
          <caption className="visually-hidden">Per-user totals</caption>
          <thead>
            <tr>
              <th scope="col">Team member</th>
              {FACTS.map(([k, label]) => (
                <th key={k} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.users.map((u) => (
              <tr key={u.user_id ?? 'none'}>
                <th scope="row">
                  {u.user_id === null ? 'No user (API keys, unassigned)' : u.display_name}
                  {u.is_active === false ? ' (inactive)' : ''}
                </th>
                {FACTS.map(([k]) => (
                  <td key={k} className="num">
                    {u[k]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {FACTS.map(([k]) => (
                <td key={k} className="num" data-metric={`team.totals.${k}`} data-value={report.totals[k]}>
                  {report.totals[k]}
                  {report.change ? <span className="figure-change cell-change">{changeText(report.change.totals[k])}</span> : null}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
    </Panel>
  );
}
