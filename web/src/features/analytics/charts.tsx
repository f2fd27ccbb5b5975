import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The dashboard's charts: the only module that imports the chart library (recharts, ~460 KB),
 * loaded on its own after the figures and tables are on screen (see figures.tsx `Chart`).
 */
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
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart accessibilityLayer={false} data={data} layout={horizontal ? 'vertical' : 'horizontal'} margin={horizontal ? { left: 40 } : undefined}>
        {grid ? <CartesianGrid strokeDasharray="3 3" /> : null}
        {horizontal ? <XAxis type="number" allowDecimals={false} /> : <XAxis dataKey={category} />}
        {horizontal ? <YAxis type="category" dataKey={category} width={100} /> : <YAxis allowDecimals={false} />}
        <Tooltip />
        <Bar dataKey={value} fill={color} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export interface LinesProps {
  data: Record<string, string | number>[];
  category: string;
  series: readonly (readonly [key: string, label: string, color: string])[];
  height: number;
}

export function Lines({ data, category, series, height }: LinesProps) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart accessibilityLayer={false} data={data}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey={category} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend />
        {series.map(([k, label, color]) => (
          <Line key={k} type="monotone" dataKey={k} name={label} stroke={color} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
