import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

/**
 * The dashboard's charts: the only module that imports the chart library (Chart.js, canvas, only
 * the controllers, elements and scales below registered), loaded on its own after the figures and
 * tables are on screen (see figures.tsx `ChartFigure`). Chart.js sizes its canvas through the
 * element's style properties and injects no <style>, so the console's CSP holds (docs/scaling.md).
 */
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
Chart.defaults.color = '#666';
// Every number is also in the table beside the chart; drawing at once is what the page waits for.
Chart.defaults.animation = false;

type Config = ChartConfiguration<'bar' | 'line', number[], string>;

/**
 * One chart on a canvas in a box of the given height that follows its container's width. The
 * canvas gets `data-drawn` once Chart.js has drawn it (the bench and tests wait on that).
 */
function ChartCanvas({ config, height }: { config: Config; height: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'bar' | 'line', number[], string> | null>(null);
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    if (chart.current) {
      chart.current.data = config.data;
      chart.current.options = config.options ?? {};
      chart.current.update();
    } else {
      chart.current = new Chart(el, config);
      el.dataset.drawn = 'true';
    }
  }, [config]);
  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );
  return (
    <div className="chart-box" style={{ height }}>
      <canvas ref={canvas} />
    </div>
  );
}

const DASH = [3, 3];
const GRID = { color: '#ccc' };
const NO_GRID = { display: false };

export interface BarsProps {
  data: Record<string, string | number>[];
  /** The category key (x axis, or y axis when `horizontal`). */
  category: string;
  value: string;
  color: string;
  height: number;
  horizontal?: boolean;
  grid?: boolean;
}

export function Bars({ data, category, value, color, height, horizontal, grid }: BarsProps) {
  const categories = { type: 'category' as const, grid: grid ? GRID : NO_GRID, border: { dash: grid ? DASH : [] } };
  const counts = { type: 'linear' as const, beginAtZero: true, ticks: { precision: 0 }, grid: grid ? GRID : NO_GRID, border: { dash: grid ? DASH : [] } };
  const config: Config = {
    type: 'bar',
    data: {
      labels: data.map((d) => String(d[category])),
      datasets: [{ label: value, data: data.map((d) => Number(d[value])), backgroundColor: color }],
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
      scales: horizontal ? { x: counts, y: categories } : { x: categories, y: counts },
    },
  };
  return <ChartCanvas config={config} height={height} />;
}

export interface LinesProps {
  data: Record<string, string | number>[];
  category: string;
  series: readonly (readonly [key: string, label: string, color: string])[];
  height: number;
}

export function Lines({ data, category, series, height }: LinesProps) {
  const config: Config = {
    type: 'line',
    data: {
      labels: data.map((d) => String(d[category])),
      datasets: series.map(([k, label, color]) => ({
        label,
        data: data.map((d) => Number(d[k])),
        borderColor: color,
        backgroundColor: color,
        borderWidth: 1.5,
        pointRadius: 0,
        cubicInterpolationMode: 'monotone' as const,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: { position: 'bottom', labels: { usePointStyle: true, pointStyle: 'line' } } },
      scales: {
        x: { type: 'category', grid: GRID, border: { dash: DASH } },
        y: { type: 'linear', beginAtZero: true, ticks: { precision: 0 }, grid: GRID, border: { dash: DASH } },
      },
    },
  };
  return <ChartCanvas config={config} height={height} />;
}
