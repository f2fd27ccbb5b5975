import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, focused, horizontalOverflow, PHONE, pressOn, screenshot, signIn } from './helpers/browser.ts';
import { useConsoleServer } from './helpers/console.ts';

const NAV_ALL = ['Deals', 'Pipeline', 'Tickets', 'Organizations', 'Contacts', 'Activity', 'Analytics', 'Webhooks'];

describe('console sign-in, navigation and sign-out (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer();

  test('signed out, / shows the sign-in page; a wrong password gets the one message; the owner signs in and out', async () => {
    const { page, errors } = await app.open(null, '/');
    await page.waitForURL(/\/sign-in/);
    await assert.doesNotReject(page.getByRole('heading', { name: 'Sign in to custops' }).waitFor());
    await assertAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in-1280');

    await page.getByLabel('Email').fill(app.server.owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await assert.doesNotReject(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor());
    await assertAccessible(page, 'sign-in with an error');

    await page.getByLabel('Password').fill(app.server.owner.password);
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
  });

  test('a member sees no API keys or Team, and is sent away from them', async () => {
    const { page } = await app.open(app.server.member, '/deals');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    assert.deepEqual(await nav.getByRole('link').allTextContents(), NAV_ALL);
    await page.goto('/api-keys');
    await page.waitForURL(/\/deals$/);
  });

  test('keyboard only: sign in with Tab and Enter, reach Webhooks through the navigation, sign out', async () => {
    const { page } = await app.open(null, '/sign-in');
    await page.getByLabel('Email').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused.name(page), 'email');
    await page.keyboard.type(app.server.admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(app.server.admin.password);
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
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    // And out again.
    await pressOn(page, 'Sign out');
    await page.waitForURL(/\/sign-in/);
    assert.equal((await page.request.get('/api/v1/session')).status(), 401, 'the session ended on the server');
  });

  test('390 px: the sign-in page and the shell fit the width', async () => {
    const { page } = await app.open(null, '/sign-in', { viewport: PHONE });
    await page.getByLabel('Email').waitFor();
    await screenshot(page, 'sign-in-390');
    await signIn(page, app.server.owner);
    const overflow = await horizontalOverflow(page);
    assert.equal(overflow, 0, 'no horizontal scrolling at 390 px');
    await assertAccessible(page, 'shell at 390 px');
    await screenshot(page, 'shell-owner-390');
  });
});
