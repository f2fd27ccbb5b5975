import type { ActivityReport } from './reports';
import { ChartFigure, Figure, Panel } from './figures';

type Mix = ActivityReport;
const KINDS = [
  ['note', 'Notes'],
  ['email', 'Emails'],
  ['call', 'Calls'],
  ['meeting', 'Meetings'],
] as const;

/** How the period's activity splits: by kind of timeline entry, and timeline against support logs. */
export function ActivityMixPanel({ report }: { report: Mix }) {
  const c = report.change;
  const data = [...KINDS.map(([k, label]) => ({ kind: label, entries: report.by_kind[k] })), { kind: 'Support logs', entries: report.by_source.support_log }];
  return (
    <Panel id="mix" title="Activity mix">
      <dl className="figures">
        <Figure label="All activity" value={report.total} metric="activity.total" change={c?.total} />
        {KINDS.map(([k, label]) => (
          <Figure key={k} label={label} value={report.by_kind[k]} metric={`activity.by_kind.${k}`} change={c?.by_kind[k]} />
        ))}
        <Figure label="Support logs" value={report.by_source.support_log} metric="activity.by_source.support_log" change={c?.by_source.support_log} />
      </dl>
      <ChartFigure caption="Activity by kind" bars={{ data, category: 'kind', value: 'entries', color: '#f08c00', height: 200, horizontal: true }} />
    </Panel>
  );
}
