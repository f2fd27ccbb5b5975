import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  change,
  isoWeekLabel,
  percentOf,
  presetPeriods,
  resolveRange,
  startOfIsoWeek,
  wantsCompare,
  weekIndex,
  rateChange,
  weeksOf,
  winRate,
  type Preset,
} from '../../src/modules/analytics/analytics.period.ts';
import { AppError } from '../../src/lib/errors.ts';
import { segments } from '../../src/modules/analytics/analytics.period.ts';

const t = (s: string) => Date.parse(s);
const iso = (p: { from: number; to: number }) => [new Date(p.from).toISOString().slice(0, 10), new Date(p.to).toISOString().slice(0, 10)];

describe('analytics presets at fixed clocks', () => {
  // [clock, preset, current from, current to, previous from, previous to] (dates, `to` exclusive)
  const cases: [string, Preset, string, string, string, string][] = [
    // A Saturday in November 2026.
    ['2026-11-21T12:00:00.000Z', 'today', '2026-11-21', '2026-11-22', '2026-11-20', '2026-11-21'],
    ['2026-11-21T12:00:00.000Z', 'this_week', '2026-11-16', '2026-11-23', '2026-11-09', '2026-11-16'],
    ['2026-11-21T12:00:00.000Z', 'last_week', '2026-11-09', '2026-11-16', '2026-11-02', '2026-11-09'],
    ['2026-11-21T12:00:00.000Z', 'this_month', '2026-11-01', '2026-12-01', '2026-10-01', '2026-11-01'],
    ['2026-11-21T12:00:00.000Z', 'last_month', '2026-10-01', '2026-11-01', '2026-09-01', '2026-10-01'],
    ['2026-11-21T12:00:00.000Z', 'this_quarter', '2026-10-01', '2027-01-01', '2026-07-01', '2026-10-01'],
    ['2026-11-21T12:00:00.000Z', 'this_year', '2026-01-01', '2027-01-01', '2025-01-01', '2026-01-01'],
    ['2026-11-21T12:00:00.000Z', 'last_year', '2025-01-01', '2026-01-01', '2024-01-01', '2025-01-01'],
    // New Year 2027 at midnight: ISO week 2026-W53 straddles the year boundary.
    ['2027-01-01T00:00:00.000Z', 'today', '2027-01-01', '2027-01-02', '2026-12-31', '2027-01-01'],
    ['2027-01-01T00:00:00.000Z', 'this_week', '2026-12-28', '2027-01-04', '2026-12-21', '2026-12-28'],
    ['2027-01-01T00:00:00.000Z', 'last_week', '2026-12-21', '2026-12-28', '2026-12-14', '2026-12-21'],
    ['2027-01-01T00:00:00.000Z', 'this_month', '2027-01-01', '2027-02-01', '2026-12-01', '2027-01-01'],
    ['2027-01-01T00:00:00.000Z', 'last_month', '2026-12-01', '2027-01-01', '2026-11-01', '2026-12-01'],
    ['2027-01-01T00:00:00.000Z', 'this_quarter', '2027-01-01', '2027-04-01', '2026-10-01', '2027-01-01'],
    ['2027-01-01T00:00:00.000Z', 'this_year', '2027-01-01', '2028-01-01', '2026-01-01', '2027-01-01'],
    ['2027-01-01T00:00:00.000Z', 'last_year', '2026-01-01', '2027-01-01', '2025-01-01', '2026-01-01'],
    // Leap day 2028 and the last millisecond of a day.
    ['2028-02-29T23:59:59.999Z', 'today', '2028-02-29', '2028-03-01', '2028-02-28', '2028-02-29'],
    ['2028-02-29T23:59:59.999Z', 'this_week', '2028-02-28', '2028-03-06', '2028-02-21', '2028-02-28'],
    ['2028-02-29T23:59:59.999Z', 'last_week', '2028-02-21', '2028-02-28', '2028-02-14', '2028-02-21'],
    ['2028-02-29T23:59:59.999Z', 'this_month', '2028-02-01', '2028-03-01', '2028-01-01', '2028-02-01'],
    ['2028-02-29T23:59:59.999Z', 'last_month', '2028-01-01', '2028-02-01', '2027-12-01', '2028-01-01'],
    ['2028-02-29T23:59:59.999Z', 'this_quarter', '2028-01-01', '2028-04-01', '2027-10-01', '2028-01-01'],
    ['2028-02-29T23:59:59.999Z', 'this_year', '2028-01-01', '2029-01-01', '2027-01-01', '2028-01-01'],
    ['2028-02-29T23:59:59.999Z', 'last_year', '2027-01-01', '2028-01-01', '2026-01-01', '2027-01-01'],
  ];
  for (const [now, preset, ...dates] of cases) {
    test(`${preset} at ${now}`, () => {
      const { current, previous } = presetPeriods(preset, t(now));
      assert.deepEqual([...iso(current), ...iso(previous)], dates);
    });
  }

  test('ISO week 2026-W53 straddles New Year 2027', () => {
    assert.equal(isoWeekLabel(presetPeriods('this_week', t('2027-01-01T00:00:00Z')).current.from), '2026-W53');
  });

  test('February 2028 has 29 days', () => {
    const march = presetPeriods('last_month', t('2028-03-31T10:00:00Z')).current;
    assert.equal((march.to - march.from) / 86_400_000, 29);
  });

  test('week edges: Sunday 23:59:59.999 and Monday 00:00', () => {
    assert.deepEqual(iso(presetPeriods('this_week', t('2026-11-22T23:59:59.999Z')).current), ['2026-11-16', '2026-11-23']);
    assert.deepEqual(iso(presetPeriods('this_week', t('2026-11-23T00:00:00.000Z')).current), ['2026-11-23', '2026-11-30']);
    assert.equal(startOfIsoWeek(t('2026-11-23T00:00:00.000Z')), t('2026-11-23T00:00:00.000Z'));
  });

  test('month ends: the 31st and a quarter end', () => {
    assert.deepEqual(iso(presetPeriods('this_month', t('2026-03-31T23:59:59.999Z')).current), ['2026-03-01', '2026-04-01']);
    assert.deepEqual(iso(presetPeriods('last_month', t('2026-03-31T12:00:00Z')).current), ['2026-02-01', '2026-03-01']);
    assert.deepEqual(iso(presetPeriods('this_quarter', t('2026-06-30T23:59:59.999Z')).current), ['2026-04-01', '2026-07-01']);
    assert.deepEqual(iso(presetPeriods('this_quarter', t('2026-07-01T00:00:00.000Z')).current), ['2026-07-01', '2026-10-01']);
  });
});

describe('ISO week labels and buckets', () => {
  test('labels around year boundaries', () => {
    const cases: [string, string][] = [
      ['2026-12-28', '2026-W53'],
      ['2027-01-04', '2027-W01'],
      ['2024-12-30', '2025-W01'],
      ['2021-01-04', '2021-W01'],
      ['2020-12-28', '2020-W53'],
      ['2026-11-16', '2026-W47'],
      ['2026-01-05', '2026-W02'],
      ['2025-12-29', '2026-W01'],
    ];
    for (const [monday, label] of cases) assert.equal(isoWeekLabel(t(`${monday}T00:00:00Z`)), label, monday);
  });

  test('weeks overlapping a range across the year boundary', () => {
    const weeks = weeksOf({ from: t('2026-12-20T00:00:00Z'), to: t('2027-01-06T00:00:00Z') }).map(isoWeekLabel);
    assert.deepEqual(weeks, ['2026-W51', '2026-W52', '2026-W53', '2027-W01']);
    assert.equal(weeksOf({ from: t('2026-01-01T00:00:00Z'), to: t('2027-01-01T00:00:00Z') }).length, 53);
  });

  test('week index counts Mondays from 1970-01-05', () => {
    assert.equal(weekIndex(t('1970-01-05T00:00:00Z')), 0);
    assert.equal(weekIndex(t('1970-01-11T23:59:59.999Z')), 0);
    assert.equal(weekIndex(t('1970-01-12T00:00:00Z')), 1);
    assert.equal(weekIndex(t('2026-12-28T00:00:00Z')) + 1, weekIndex(t('2027-01-04T00:00:00Z')));
  });
});

describe('custom ranges', () => {
  const now = t('2026-11-21T12:00:00Z');
  const fieldsOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof AppError);
      assert.equal(e.code, 'validation_error');
      return e.fields;
    }
    assert.fail('expected a validation error');
  };

  test('a bare to covers its whole day; the previous period has the same length just before from', () => {
    const r = resolveRange({ from: '2026-02-01', to: '2026-02-28' }, now);
    assert.equal(r.range, 'custom');
    assert.deepEqual(iso(r.current), ['2026-02-01', '2026-03-01']);
    assert.deepEqual(iso(r.previous), ['2026-01-04', '2026-02-01']);
    const leap = resolveRange({ from: '2028-02-29', to: '2028-02-29' }, now);
    assert.deepEqual(iso(leap.current), ['2028-02-29', '2028-03-01']);
    assert.deepEqual(iso(leap.previous), ['2028-02-28', '2028-02-29']);
  });

  test('date-times are exact; from alone runs to the end of today; from/to override range', () => {
    const r = resolveRange({ range: 'this_year', from: '2026-11-01T09:30:00Z', to: '2026-11-01T10:30:00Z' }, now);
    assert.deepEqual(r.current, { from: t('2026-11-01T09:30:00Z'), to: t('2026-11-01T10:30:00.001Z') });
    assert.deepEqual(r.previous, { from: t('2026-11-01T08:29:59.999Z'), to: t('2026-11-01T09:30:00Z') });
    assert.deepEqual(iso(resolveRange({ from: '2026-11-01' }, now).current), ['2026-11-01', '2026-11-22']);
  });

  test('default preset is this_month', () => {
    const r = resolveRange({}, now);
    assert.equal(r.range, 'this_month');
    assert.deepEqual(iso(r.current), ['2026-11-01', '2026-12-01']);
  });

  test('bad ranges name the field', () => {
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: '2026-02-30' }, now)),
      { from: 'invalid_date' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: '2026-01-01', to: '2026-13-01' }, now)),
      { to: 'invalid_date' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: '2027-02-29' }, now)),
      { from: 'invalid_date' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ to: '2026-01-01' }, now)),
      { from: 'required' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: '2026-03-02', to: '2026-03-01' }, now)),
      { from: 'after_to' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: '2016-01-01', to: '2026-01-01' }, now)),
      { to: 'range_too_long' },
    );
    assert.deepEqual(
      fieldsOf(() => resolveRange({ from: 'yesterday' }, now)),
      { from: 'invalid_date' },
    );
    assert.deepEqual(iso(resolveRange({ from: '2016-01-01', to: '2025-12-31' }, now).current), ['2016-01-01', '2026-01-01'], 'exactly ten years is allowed');
  });
});

describe('change objects and rates', () => {
  test('the documented change rules (docs/design.md#analytics)', () => {
    assert.deepEqual(change(12, 10), { absolute: 2, percent: 20, note: null });
    assert.deepEqual(change(5, 0), { absolute: 5, percent: null, note: 'zero_baseline' });
    assert.deepEqual(change(0, 0), { absolute: 0, percent: 0, note: null });
    assert.deepEqual(change(0, 4), { absolute: -4, percent: -100, note: null });
    assert.deepEqual(change(1, 3), { absolute: -2, percent: -66.7, note: null });
    assert.deepEqual(change(4, 3), { absolute: 1, percent: 33.3, note: null });
    assert.deepEqual(change(15, 16), { absolute: -1, percent: -6.3, note: null });
  });

  test('percent rounds half away from zero, exactly', () => {
    assert.equal(percentOf(1, 16), 6.3);
    assert.equal(percentOf(1, 8), 12.5);
    assert.equal(percentOf(1, 2000), 0.1);
    assert.equal(percentOf(1, 2001), 0);
    assert.equal(percentOf(0, 7), 0);
    assert.equal(Object.is(percentOf(0, 7), -0), false);
  });

  test('win rate', () => {
    assert.equal(winRate(0, 0), null);
    assert.equal(winRate(1, 2), 33.3);
    assert.equal(winRate(2, 1), 66.7);
    assert.equal(winRate(3, 0), 100);
    assert.equal(winRate(0, 3), 0);
  });

  test('compare values', () => {
    for (const v of ['1', 'true', 'previous']) assert.equal(wantsCompare(v), true);
    for (const v of [undefined, '0', 'false']) assert.equal(wantsCompare(v), false);
  });
});

describe('per-org rollup segments', () => {
  const d = (s: string) => t(`${s}T00:00:00Z`) / 86_400_000;
  test('a calendar year is one yearly segment', () => {
    assert.deepEqual(segments({ from: t('2026-01-01T00:00:00Z'), to: t('2027-01-01T00:00:00Z') }), {
      years: [{ a: d('2026-01-01'), b: d('2027-01-01') }],
      months: [],
      raw: [],
    });
  });
  test('days, months, a year, months, days', () => {
    assert.deepEqual(segments({ from: t('2025-11-15T00:00:00Z'), to: t('2027-02-11T00:00:00Z') }), {
      years: [{ a: d('2026-01-01'), b: d('2027-01-01') }],
      months: [
        { a: d('2025-12-01'), b: d('2026-01-01') },
        { a: d('2027-01-01'), b: d('2027-02-01') },
      ],
      raw: [
        { from: t('2025-11-15T00:00:00Z'), to: t('2025-12-01T00:00:00Z') },
        { from: t('2027-02-01T00:00:00Z'), to: t('2027-02-11T00:00:00Z') },
      ],
    });
  });
  test('inside one month, or not whole days: records only', () => {
    assert.deepEqual(segments({ from: t('2026-11-02T00:00:00Z'), to: t('2026-11-20T00:00:00Z') }), {
      years: [],
      months: [],
      raw: [{ from: t('2026-11-02T00:00:00Z'), to: t('2026-11-20T00:00:00Z') }],
    });
    const odd = { from: t('2026-01-01T00:00:00Z'), to: t('2027-01-01T00:00:00.001Z') };
    assert.deepEqual(segments(odd), { years: [], months: [], raw: [odd] });
  });
});

describe('win rate changes', () => {
  test('in percentage points, by the change rules; null when either side has no rate', () => {
    assert.deepEqual(rateChange(75, 50), { absolute: 25, percent: 50, note: null });
    // 66.7 − 33.3 is 33.4 points (not 33.400000000000006); 100 × 33.4 / 33.3 = 100.3 %.
    assert.deepEqual(rateChange(66.7, 33.3), { absolute: 33.4, percent: 100.3, note: null });
    assert.deepEqual(rateChange(40, 0), { absolute: 40, percent: null, note: 'zero_baseline' });
    assert.deepEqual(rateChange(0, 0), { absolute: 0, percent: 0, note: null });
    assert.equal(rateChange(null, 50), null);
    assert.equal(rateChange(50, null), null);
  });
});
