import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dateRange, parseDateBound } from '../../src/lib/dates.ts';
import { AppError } from '../../src/lib/errors.ts';
import { offsetOf, pageOf, paginate } from '../../src/lib/pagination.ts';

describe('pagination arithmetic', () => {
  test('defaults are page 1, per_page 25', () => {
    assert.deepEqual(pageOf({}), { page: 1, per_page: 25 });
  });
  test('pages = ceil(total / per_page), 0 when empty', () => {
    assert.deepEqual(paginate({ page: 1, per_page: 25 }, 0), { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false });
    assert.equal(paginate({ page: 1, per_page: 25 }, 25).pages, 1);
    assert.equal(paginate({ page: 1, per_page: 25 }, 26).pages, 2);
    assert.equal(paginate({ page: 1, per_page: 100 }, 1).pages, 1);
  });
  test('has_next = page < pages; has_prev = page > 1; past the end has no next', () => {
    assert.deepEqual(paginate({ page: 2, per_page: 10 }, 30), { page: 2, per_page: 10, total: 30, pages: 3, has_next: true, has_prev: true });
    assert.equal(paginate({ page: 3, per_page: 10 }, 30).has_next, false);
    assert.deepEqual(paginate({ page: 9, per_page: 10 }, 30), { page: 9, per_page: 10, total: 30, pages: 3, has_next: false, has_prev: true });
  });
  test('offset', () => {
    assert.equal(offsetOf({ page: 1, per_page: 25 }), 0);
    assert.equal(offsetOf({ page: 4, per_page: 10 }), 30);
  });
});

describe('date bounds', () => {
  test('a bare day is its first millisecond as a lower bound and its last as an upper bound', () => {
    assert.equal(parseDateBound('2026-11-20', 'start'), Date.UTC(2026, 10, 20));
    assert.equal(parseDateBound('2026-11-20', 'end'), Date.UTC(2026, 10, 21) - 1);
  });
  test('date-times with and without Z are UTC; offsets are applied', () => {
    assert.equal(parseDateBound('2026-11-20T10:30:00Z', 'start'), Date.UTC(2026, 10, 20, 10, 30));
    assert.equal(parseDateBound('2026-11-20T10:30:00', 'start'), Date.UTC(2026, 10, 20, 10, 30));
    assert.equal(parseDateBound('2026-11-20T10:30:00.250', 'end'), Date.UTC(2026, 10, 20, 10, 30, 0, 250));
    assert.equal(parseDateBound('2026-11-20T10:30', 'start'), Date.UTC(2026, 10, 20, 10, 30));
    assert.equal(parseDateBound('2026-11-20T10:30:00+02:00', 'start'), Date.UTC(2026, 10, 20, 8, 30));
    assert.equal(parseDateBound('2026-11-20T10:30:00-0530', 'start'), Date.UTC(2026, 10, 20, 16, 0));
  });
  test('leap days: 2028-02-29 exists, 2026-02-29 does not', () => {
    assert.equal(parseDateBound('2028-02-29', 'start'), Date.UTC(2028, 1, 29));
    assert.equal(parseDateBound('2026-02-29', 'start'), null);
  });
  test('impossible and malformed dates are refused', () => {
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-11-31',
      '2026-11-20T24:00:00Z',
      '2026-11-20T10:60',
      'yesterday',
      '20261120',
      '2026-11-20Z',
      '',
      '2026-1-2',
      '2026-11-20T10:30:00+25:00',
    ]) {
      assert.equal(parseDateBound(bad, 'start'), null, bad);
    }
  });
  test('dateRange names the bad field, and refuses from after to', () => {
    assert.deepEqual(dateRange({ created_from: '2026-11-01', created_to: '2026-11-01' }, 'created_from', 'created_to'), {
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 10, 2) - 1,
    });
    assert.deepEqual(dateRange({}, 'from', 'to'), { from: null, to: null });
    const e1 = assert.throws(
      () => dateRange({ from: '2026-02-30' }, 'from', 'to'),
      (e: unknown) => e instanceof AppError && e.fields?.from === 'invalid_date',
    );
    void e1;
    assert.throws(
      () => dateRange({ from: '2026-11-02', to: '2026-11-01' }, 'from', 'to'),
      (e: unknown) => e instanceof AppError && e.code === 'validation_error' && !!e.fields?.from,
    );
  });
});
