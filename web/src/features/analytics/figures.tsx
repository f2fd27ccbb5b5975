import { useEffect, useState } from 'react';
import type { components } from '../../../../src/client/index.ts';
import type { BarsProps, LinesProps } from './charts';

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
export function Figure({
  label,
  value,
  metric,
  change,
  unit = '',
}: {
  label: string;
  value: number | string | null;
  metric: string;
  change?: Change | null;
  unit?: string;
}) {
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

/**
 * Headline figures of one report, each shown with its change when the report compares: the value
 * is `values[key]`, the change `changes[key]`, the metric `${metric}.${key}`. `now` figures (a
 * state of today, not of the period) have no change. `children` adds figures from elsewhere in the report.
 */
export function FigureList<K extends string>({
  metric,
  values,
  changes,
  figures,
  children,
}: {
  metric: string;
  values: NoInfer<{ [P in K]: number | string | null }>;
  changes: NoInfer<{ [P in K]?: Change | null }> | null | undefined;
  figures: readonly { key: K; label: string; unit?: string; now?: boolean }[];
  children?: React.ReactNode;
}) {
  return (
    <dl className="figures">
      {figures.map((f) => (
        <Figure key={f.key} label={f.label} value={values[f.key]} unit={f.unit} metric={`${metric}.${f.key}`} change={f.now ? null : changes?.[f.key]} />
      ))}
      {children}
    </dl>
  );
}

// The chart library loads on its own, after the figures and tables: they are the page's content
// (every number a chart draws is also in a table), and the library is most of the page's code.
// Not React.lazy: a Suspense boundary that resolves is revealed up to 300 ms later (React throttles
// fallback reveals), so the module is held in state and the chart renders the moment it is here.
type ChartsModule = typeof import('./charts');
let chartsModule: ChartsModule | undefined;
let chartsLoading: Promise<ChartsModule> | undefined;
function loadCharts(): Promise<ChartsModule> {
  chartsLoading ??= import('./charts').then((m) => (chartsModule = m));
  return chartsLoading;
}

/** A chart with a caption; its numbers are also in the table beside it, so nothing is only a picture. Holds its height while the chart code loads. */
export function ChartFigure(props: { caption: string } & ({ bars: BarsProps } | { lines: LinesProps })) {
  const [charts, setCharts] = useState(chartsModule);
  useEffect(() => {
    if (charts) return;
    let live = true;
    loadCharts().then((m) => live && setCharts(m));
    return () => {
      live = false;
    };
  }, [charts]);
  const height = 'bars' in props ? props.bars.height : props.lines.height;
  return (
    <figure className="chart">
      <figcaption>{props.caption}</figcaption>
      <div className="chart-canvas" aria-hidden="true" style={{ minHeight: height }}>
        {charts ? 'bars' in props ? <charts.Bars {...props.bars} /> : <charts.Lines {...props.lines} /> : null}
      </div>
    </figure>
  );
}

/** One report of the dashboard: a titled section (named by its heading). */
export function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}
