import type { components } from '../../../../src/client/index.ts';

type Change = components['schemas']['AnalyticsChange'];

/** The API's change object in words: "+3 (+50%)", "+3 (previous 0)", "0 (0%)". Never recomputed. */
export function changeText(change: Change | null | undefined, unit = ''): string {
  if (!change) return '';
  const sign = change.absolute > 0 ? '+' : '';
  if (change.note === 'zero_baseline') return `${sign}${change.absolute}${unit} (previous period 0)`;
  const pct = change.percent === null ? '' : ` (${change.percent > 0 ? '+' : ''}${change.percent}%)`;
  return `${sign}${change.absolute}${unit}${pct}`;
}

/**
 * One headline figure with its change. `metric` names the API field it shows (for example
 * `sales.won`): the browser tests compare every such figure with the API's JSON.
 */
export function Figure({ label, value, metric, change, unit = '' }: { label: string; value: number | string | null; metric: string; change?: Change | null; unit?: string }) {
  return (
    <div className="figure" data-metric={metric}>
      <dt>{label}</dt>
      <dd>
        <span className="figure-value" data-value={value === null ? '' : String(value)}>
          {value === null ? '—' : `${value}${unit}`}
        </span>
        {change ? (
          <span className={`figure-change ${change.absolute > 0 ? 'up' : change.absolute < 0 ? 'down' : ''}`} data-change={JSON.stringify(change)}>
            {changeText(change, unit === '%' ? ' pts' : '')}
          </span>
        ) : null}
      </dd>
    </div>
  );
}

/** A chart with a caption; its numbers are also in the table beside it, so nothing is only a picture. */
export function ChartFigure({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <figure className="chart">
      <figcaption>{caption}</figcaption>
      <div className="chart-canvas" aria-hidden="true">
        {children}
      </div>
    </figure>
  );
}
