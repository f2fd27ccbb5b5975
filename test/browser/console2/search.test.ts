import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, horizontalOverflow, PHONE, screenshot } from '../helpers/browser.ts';
import { useConsoleServer } from '../helpers/console.ts';
import { orgWithContact } from './fixtures.ts';

describe('global search (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer({ subscribeAll: true });

  test('Ctrl+K on any page, or "/", finds orgs, contacts, deals and tickets; Enter opens the first hit', async () => {
    const { org, contact } = await orgWithContact(app, 'Wayne Enterprises', 'bruce@wayne.example');
    const deal = await app.create('/api/v1/deals', { org_id: org.id, title: 'Wayne armour order' });
    await app.create('/api/v1/support/tickets', { source_app: 'hd', org_id: org.id, contact_id: contact.id, title: 'Wayne badge reader', details: 'D' });
    const { page, errors } = await app.open(app.server.owner, '/deals');
    for (const path of ['/deals', '/pipeline', '/tickets', '/orgs', '/contacts', '/activity', '/analytics', `/deals/${deal.id}`]) {
      if (path !== '/deals') await page.goto(path);
      await page.locator('h1').first().waitFor();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }

    await page.goto('/tickets');
    await page.locator('h1').first().waitFor();
    await page.keyboard.press('/');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.waitFor();
    await page.keyboard.type('wayne');
    for (const group of ['Organizations', 'Contacts', 'Deals', 'Tickets']) {
      await assert.doesNotReject(dialog.getByRole('region', { name: group }).waitFor(), group);
    }
    await assert.doesNotReject(dialog.getByRole('link', { name: 'Wayne armour order' }).waitFor());
    await assertAccessible(page, 'search dialog');
    await screenshot(page, 'search-1280');
    // ↓ moves into the hits; Enter follows the focused one.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/deals\/\d+$/);
    assert.match(page.url(), new RegExp(`/deals/${deal.id}$`));

    await page.keyboard.press('Control+k');
    await page.keyboard.type('Wayne Enter');
    await page.getByRole('dialog', { name: 'Search' }).getByRole('link', { name: 'Wayne Enterprises', exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/orgs/${org.id}$`));

    await page.goto('/search?q=nothing-matches-this');
    await page.getByText('Nothing matches').waitFor();
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await assertAccessible(page, 'search page');
    await screenshot(page, 'search-390');
    assert.deepEqual(errors, []);
  });
});
