import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_TEST, horizontalOverflow, PHONE, screenshot } from '../helpers/browser.ts';
import { useConsoleServer } from '../helpers/console.ts';
import { orgWithContact, waitForTrue } from './fixtures.ts';

const PRESETS = ['today', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'this_year', 'last_year'];
const REPORTS = ['sales', 'support', 'team', 'customers', 'activity', 'trends'] as const;

/** The API figure a `data-metric` names: a dotted path into that report (lost reasons by code, pipeline rows by status). */
function figureAt(reports: Record<string, any>, metric: string, part: 'value' | 'change'): unknown {
  const [report, ...path] = metric.split('.');
  let at: any = part === 'change' ? reports[report].change : reports[report];
  for (const key of path) {
    if (at === undefined || at === null) return undefined;
    if (Array.isArray(at)) at = at.find((row) => row.code === key || (key === 'none' && row.code === null) || row.status === key)?.count;
    else if (key in at) at = at[key];
    else if (Array.isArray(at.by_status)) at = at.by_status.find((row: any) => row.status === key)?.count;
    else return undefined;
  }
  return at;
}

/** Every figure the dashboard shows, as `[metric, value shown, change shown]`. */
function shownFigures(page: Page): Promise<[string, string, string | null][]> {
  return page.evaluate(`[...document.querySelectorAll('[data-metric]')].flatMap((el) => {
    const v = el.hasAttribute('data-value') ? el : el.querySelector('[data-value]');
    if (!v) return [];
    const c = el.querySelector('[data-change]');
    return [[el.getAttribute('data-metric'), v.getAttribute('data-value'), c ? c.getAttribute('data-change') : null]];
  })`);
}

describe('analytics dashboard (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer({ subscribeAll: true });
  before(async () => {
    const { org, contact } = await orgWithContact(app, 'Analytics Org', 'a@analytics.example');
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Won one', status: 'won', owner_user_id: app.server.owner.id });
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Lost one', status: 'lost', lost_reason: { code: 'price', label: 'Too expensive' } });
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Lost plain', status: 'lost' });
    const open = await app.create('/api/v1/deals', {
      org_id: org.id,
      title: 'Open one',
      status: 'proposal',
      value: '99.90',
      currency: 'EUR',
      next_followup_at: '2021-01-01',
    });
    await app.create(`/api/v1/deals/${open.id}/activities`, { source_app: 'crm', message: 'Met', activity_kind: 'meeting' });
    await app.create('/api/v1/support/tickets', { source_app: 'hd', org_id: org.id, contact_id: contact.id, title: 'Help', details: 'D' });
  });

  test("every preset with compare, and custom dates: each figure shown is the API's, and the range lives in the URL", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const ranges = [...PRESETS.map((p) => `range=${p}&compare=true`), `range=custom&from=2026-01-01&to=${today}&compare=true`, 'range=this_month'];
    const { page, errors } = await app.open(app.server.owner, `/analytics?${ranges[0]}`);
    for (const search of ranges) {
      const apiQuery = search.replace('range=custom&', '').replace('compare=true', 'compare=1');
      const reports: Record<string, any> = Object.fromEntries(
        await Promise.all(REPORTS.map(async (r) => [r, await app.get(`/api/v1/analytics/${r}?${apiQuery}`)])),
      );
      if (search !== ranges[0]) await page.goto(`/analytics?${search}`);
      await page.locator(`[data-period-from="${reports.sales.period.from}"]`).waitFor();
      await page.locator('[data-metric="trends.totals.deals_created"]').waitFor();
      const shown = await shownFigures(page);
      assert.ok(shown.length >= 30, `${search}: ${shown.length} figures`);
      for (const [metric, value, change] of shown) {
        const expected = figureAt(reports, metric, 'value');
        assert.equal(value, expected === null ? '' : String(expected), `${search}: ${metric}`);
        if (change !== null) assert.deepEqual(JSON.parse(change), figureAt(reports, metric, 'change'), `${search}: change of ${metric}`);
      }
      if (search.includes('compare'))
        assert.ok(
          shown.some(([, , c]) => c !== null),
          `${search}: deltas shown`,
        );
      else
        assert.ok(
          shown.every(([, , c]) => c === null),
          `${search}: no deltas without compare`,
        );
    }
    // The period picker drives the URL; a reload keeps it.
    await page.getByLabel('Period', { exact: true }).selectOption('last_year');
    await page.waitForURL(/range=last_year/);
    await page.getByLabel('Compare with the previous period').check();
    await page.waitForURL(/compare=true/);
    await page.reload();
    assert.equal(await page.getByLabel('Period', { exact: true }).inputValue(), 'last_year');
    assert.equal(await page.getByLabel('Compare with the previous period').isChecked(), true);
    await page.goto('/analytics?range=this_year&compare=true');
    await page.locator('[data-metric="trends.totals.deals_created"]').waitFor();
    // Every chart is drawn (its canvas is marked once the chart library has drawn it).
    await waitForTrue(
      page,
      `document.querySelectorAll('.chart-canvas').length === 4 && document.querySelectorAll('.chart-canvas canvas[data-drawn]').length === 4`,
      5000,
    );
    await assertAccessible(page, 'analytics');
    await screenshot(page, 'analytics-1280');
    await page.setViewportSize(PHONE);
    // The charts measure their box after a resize (ResizeObserver): give them that frame.
    await waitForTrue(page, 'document.documentElement.scrollWidth <= document.documentElement.clientWidth', 5000).catch(() => undefined);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'analytics-390');
    assert.deepEqual(errors, []);
  });
});
