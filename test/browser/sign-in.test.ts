import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, BROWSER_TEST, focused, horizontalOverflow, launchBrowser, newContext, PHONE, screenshot, signIn, watchErrors } from './helpers/browser.ts';
import { startConsoleServer, type ConsoleServer } from './helpers/server.ts';

const NAV_ALL = ['Deals', 'Pipeline', 'Tickets', 'Organizations', 'Contacts', 'Activity', 'Analytics', 'Webhooks'];

describe('console sign-in, navigation and sign-out (browser)', BROWSER_TEST, () => {
  let server: ConsoleServer;
  let browser: Browser;
  before(async () => {
    // Started one after the other: a failed start must not leave the other running (the file would never end).
    browser = await launchBrowser();
    server = await startConsoleServer();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('signed out, / shows the sign-in page; a wrong password gets the one message; the owner signs in and out', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/');
    await page.waitForURL(/\/sign-in/);
    await assert.doesNotReject(page.getByRole('heading', { name: 'Sign in to custops' }).waitFor());
    await assertAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in-1280');

    await page.getByLabel('Email').fill(server.owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await assert.doesNotReject(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor());
    await assertAccessible(page, 'sign-in with an error');

    await page.getByLabel('Password').fill(server.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/deals$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // The shell renders once the session is read; wait for it before reading every link.
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    assert.deepEqual(await nav.getByRole('link').allTextContents(), [...NAV_ALL, 'API keys', 'Team']);
    await assertAccessible(page, 'deals placeholder');
    await screenshot(page, 'shell-owner-1280');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    // The session is over on the server: the page behind it sends back to sign-in.
    await page.goto('/webhooks');
    await page.waitForURL(/\/sign-in\?redirect=%2Fwebhooks/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a member sees no API keys or Team, and is sent away from them', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page, server.member);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    assert.deepEqual(await nav.getByRole('link').allTextContents(), NAV_ALL);
    await page.goto('/api-keys');
    await page.waitForURL(/\/deals$/);
    await context.close();
  });

  test('keyboard only: sign in with Tab and Enter, reach Webhooks through the navigation', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused.name(page), 'email');
    await page.keyboard.type(server.admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(server.admin.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/deals$/);
    await page.getByRole('heading', { name: 'Deals' }).waitFor();
    // Skip link first, then the navigation links in order.
    await page.keyboard.press('Tab');
    assert.equal(await focused.text(page), 'Skip to content');
    for (let i = 0; i < NAV_ALL.indexOf('Webhooks') + 1; i++) await page.keyboard.press('Tab');
    assert.equal(await focused.text(page), 'Webhooks');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/webhooks$/);
    await context.close();
  });

  test('390 px: the sign-in page and the shell fit the width', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').waitFor();
    await screenshot(page, 'sign-in-390');
    await signIn(page, server.owner);
    const overflow = await horizontalOverflow(page);
    assert.equal(overflow, 0, 'no horizontal scrolling at 390 px');
    await assertAccessible(page, 'shell at 390 px');
    await screenshot(page, 'shell-owner-390');
    await context.close();
  });
});
