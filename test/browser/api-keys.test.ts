import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, horizontalOverflow, PHONE, pressOn, screenshot } from './helpers/browser.ts';
import { useConsoleServer } from './helpers/console.ts';

describe('API keys page (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer();

  test('create a read-only agent key, copy its secret, call the API with it, revoke it, see the API refuse it', async () => {
    const { page, errors } = await app.open(app.server.owner, '/deals');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await assertAccessible(page, 'API keys');

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('Give the key a name').waitFor();
    await assertAccessible(page, 'create key dialog with an error');
    await screenshot(page, 'api-keys-create-1280');
    await dialog.getByLabel('Name').fill('Reporting agent <img src=x onerror=window.__xss=1>');
    await dialog.getByRole('radio', { name: /Read-only agent/ }).check();
    await dialog.getByLabel('Rate limit (requests per minute)').fill('0');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('A whole number of requests per minute').waitFor();
    await dialog.getByLabel('Rate limit (requests per minute)').fill('30');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.waitFor();
    await shown.getByText('It is shown only this once').waitFor();
    const secret = await shown.getByLabel('Secret').inputValue();
    assert.match(secret, /^cok_/);
    await shown.getByText('"url":').waitFor();
    assert.match(await shown.locator('pre').innerText(), new RegExp(`/mcp[\\s\\S]*Bearer ${secret}`));
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByText('Copied to the clipboard').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
    await assertAccessible(page, 'secret dialog');
    await screenshot(page, 'api-keys-secret-1280');

    const ok = await app.server.api('GET', '/api/v1/deals', undefined, secret);
    assert.equal(ok.status, 200);
    assert.equal((await app.server.api('POST', '/api/v1/orgs', { name: 'x' }, secret)).status, 403, 'read-only');
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Reporting agent/ });
    await row.getByText('read', { exact: true }).waitFor();
    assert.match(await row.innerText(), /30\/min/);
    assert.ok(!(await page.content()).includes(secret), 'the list never shows the secret');
    await row.getByRole('button', { name: /Revoke Reporting agent/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this API key?' });
    await confirm.waitFor();
    await assertAccessible(page, 'revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/Revoked/).waitFor();
    assert.equal((await app.server.api('GET', '/api/v1/deals', undefined, secret)).status, 401);
    await screenshot(page, 'api-keys-list-1280');
    assert.equal(await page.evaluate('window.__xss'), undefined, 'HTML in a key name stays text');
    assert.deepEqual(errors, []);
  });

  test('keyboard only: create a full-access key, close the dialog, revoke the key', async () => {
    const { page, errors } = await app.open(app.server.admin, '/api-keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await pressOn(page, 'Create API key');
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await page.keyboard.type('CI deploys'); // the name field has focus
    await page.keyboard.press('Enter'); // submits the form: full access is the default
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.waitFor();
    const secret = await shown.getByLabel('Secret').inputValue();
    assert.equal((await app.server.api('POST', '/api/v1/orgs', { name: 'Made by CI' }, secret)).status, 201);
    await page.keyboard.press('Escape');
    await shown.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /CI deploys/ });
    await row.waitFor();

    await pressOn(page, 'Revoke CI deploys');
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this API key?' });
    await confirm.waitFor();
    await pressOn(page, 'Revoke key');
    await row.getByText(/Revoked/).waitFor();
    assert.equal((await app.server.api('GET', '/api/v1/deals', undefined, secret)).status, 401);
    assert.deepEqual(errors, []);
  });

  test('a member sees no API keys page, and the server refuses the member', async () => {
    const { page } = await app.open(app.server.member, '/deals');
    const session = await (await page.request.get('/api/v1/session')).json();
    const list = await page.request.get('/api/v1/api-keys');
    assert.equal(list.status(), 403);
    const create = await page.request.post('/api/v1/api-keys', { data: { name: 'x', scopes: ['*'] }, headers: { 'x-csrf-token': session.csrf_token } });
    assert.equal(create.status(), 403);
  });

  test('390 px: the keys page and its dialog fit', async () => {
    const { page } = await app.open(app.server.owner, '/api-keys', { viewport: PHONE });
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await screenshot(page, 'api-keys-390');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('dialog').waitFor();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'api-keys-create-390');
  });
});
