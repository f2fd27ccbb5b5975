import { compact, optionalDay, optionalEnum } from '../../lib/url-search';

export const PRESETS = ['today', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'this_year', 'last_year'] as const;
export type Preset = (typeof PRESETS)[number];
export const PRESET_LABEL: Record<Preset, string> = {
  today: 'Today',
  this_week: 'This week',
  last_week: 'Last week',
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  this_year: 'This year',
  last_year: 'Last year',
};

/** The dashboard's range (a preset, or custom days) and compare toggle, as kept in the URL. */
export interface AnalyticsSearch {
  range?: Preset | 'custom';
  from?: string;
  to?: string;
  compare?: boolean;
}

export function validateAnalyticsSearch(raw: Record<string, unknown>): AnalyticsSearch {
  const range = optionalEnum(raw.range, [...PRESETS, 'custom'] as const);
  return compact({
    range,
    from: range === 'custom' ? optionalDay(raw.from) : undefined,
    to: range === 'custom' ? optionalDay(raw.to) : undefined,
    compare: raw.compare === true || raw.compare === 'true' || raw.compare === '1' ? true : undefined,
  });
}

/** The query every analytics endpoint takes: the API resolves the period; the console never computes one. */
export function analyticsQuery(search: AnalyticsSearch): { range?: Preset; from?: string; to?: string; compare?: '1' } {
  const compare = search.compare ? { compare: '1' as const } : {};
  if (search.range === 'custom' && search.from) return { from: search.from, ...(search.to ? { to: search.to } : {}), ...compare };
  return { range: search.range === 'custom' || search.range === undefined ? 'this_month' : search.range, ...compare };
}
