import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, launchBrowser, newContext, PHONE, screenshot, signIn, watchErrors, horizontalOverflow } from '../helpers/browser.ts';
import { orgWithContact, startWorkEnv, type WorkEnv } from './fixtures.ts';

describe('global search (browser)', () => {
  let env: WorkEnv;
  let browser: Browser;
  before(async () => {
    [env, browser] = await Promise.all([startWorkEnv(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await env?.stop();
  });

  test('Ctrl+K on any page, or "/", finds orgs, contacts, deals and tickets; Enter opens the first hit', async () => {
    const { org, contact } = await orgWithContact(env, 'Wayne Enterprises', 'bruce@wayne.example');
    const deal = await env.create('/api/v1/deals', { org_id: org.id, title: 'Wayne armour order' });
    await env.create('/api/v1/support/tickets', { source_app: 'hd', org_id: org.id, contact_id: contact.id, title: 'Wayne badge reader', details: 'D' });
    const context = await newContext(browser, env.server.url);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, env.server.owner);

    for (const path of ['/deals', '/pipeline', '/tickets', '/orgs', '/contacts', '/activity', '/analytics', `/deals/${deal.id}`]) {
      await page.goto(path);
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
    await context.close();
  });
});
