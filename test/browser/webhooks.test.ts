import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_TEST, focused, horizontalOverflow, PHONE, pressOn, screenshot } from './helpers/browser.ts';
import { useConsoleServer } from './helpers/console.ts';

const XSS = '<img src=x onerror=window.__xss=1>';

describe('Webhooks pages (browser, real HTTPS receiver)', BROWSER_TEST, () => {
  const app = useConsoleServer({ receiver: true });
  before(async () => {
    const org = await app.create('/api/v1/orgs', { name: `Org ${XSS}` });
    await app.create('/api/v1/deals', { org_id: org.id, title: `Deal ${XSS}` });
  });

  async function sendTest(page: Page, type: string): Promise<void> {
    await page.getByRole('button', { name: 'Send test event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test event' });
    await dialog.getByLabel('Event type').selectOption(type);
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await page.waitForURL(/\/webhooks\/deliveries\/\d+$/);
  }

  test('register an endpoint, send a test event, see it arrive; make the receiver fail, see the attempt, fix it, Retry, see it sent', async () => {
    const { page, errors } = await app.open(app.server.owner, '/deals');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await assertAccessible(page, 'webhooks (empty)');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await add.getByLabel('Name').fill(`Receiver ${XSS}`);
    await add.getByLabel('URL').fill('not a url');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByText('Enter a full address').waitFor();
    await add.getByText('Choose at least one event type.').waitFor();
    await assertAccessible(page, 'add endpoint dialog with errors');
    await add.getByLabel('URL').fill(app.receiver.url('/hook'));
    await add.getByRole('checkbox', { name: 'deal.created' }).check();
    await add.getByRole('checkbox', { name: 'deal.won' }).check();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    assert.match(await added.getByLabel('Signing secret').inputValue(), /^whsec_/);
    await assertAccessible(page, 'endpoint secret dialog');
    await added.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: `Receiver ${XSS}` }).click();
    await page.getByRole('heading', { name: `Receiver ${XSS}` }).waitFor();
    await assertAccessible(page, 'endpoint page');
    await screenshot(page, 'webhook-endpoint-1280');

    await sendTest(page, 'deal.created');
    await page.getByText('sent', { exact: true }).waitFor();
    const arrived = app.receiver.received.filter((r) => r.path === '/hook');
    assert.equal(arrived.length, 1);
    assert.equal(arrived[0].headers['x-service-test'], '1');
    const body = JSON.parse(arrived[0].raw.toString());
    assert.equal(body.test, true);
    assert.equal(body.deal.title, `Deal ${XSS}`);
    await page
      .getByRole('row', { name: /x-service-signature/ })
      .getByText('••••••••')
      .waitFor();
    await page.getByRole('cell', { name: 'test', exact: true }).waitFor();
    await assertAccessible(page, 'delivery page');
    await screenshot(page, 'webhook-delivery-sent-1280');

    app.receiver.on('/hook', () => ({ status: 500, body: `receiver broke ${XSS}` }));
    await page.goBack();
    await page.getByRole('heading', { name: `Receiver ${XSS}` }).waitFor();
    await sendTest(page, 'deal.created');
    await page.getByText('failed', { exact: true }).waitFor();
    await page.getByText(`receiver broke ${XSS}`).waitFor();
    await page.getByRole('cell', { name: '500' }).waitFor();
    await screenshot(page, 'webhook-delivery-failed-1280');

    app.receiver.on('/hook', () => ({ status: 204 }));
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('sent', { exact: true }).waitFor();
    await page.getByRole('cell', { name: 'manual', exact: true }).waitFor();
    assert.equal(app.receiver.received.filter((r) => r.path === '/hook').length, 3);

    await page.goto('/webhooks/deliveries');
    await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
    await page.getByLabel('Status').selectOption('sent');
    await page.waitForURL(/status=sent/);
    await page.getByText('2 deliveries').waitFor();
    await assertAccessible(page, 'deliveries');
    await screenshot(page, 'webhook-deliveries-1280');
    await page.goto('/webhooks');
    await page.getByText(/50% of 2|66.7% of 3/).waitFor();
    await screenshot(page, 'webhooks-1280');
    assert.equal(await page.evaluate('window.__xss'), undefined, 'HTML in names, payloads and response bodies stays text');
    assert.deepEqual(errors, []);
  });

  test('the deliveries table refreshes itself while a delivery is pending', async () => {
    // The receiver holds the attempt until the table has shown it pending.
    app.receiver.on('/slow', () => ({ hold: true }));
    const ep = await app.create('/api/v1/webhooks/endpoints', { name: 'Slow', url: app.receiver.url('/slow'), event_types: ['deal.won'] });
    const { page } = await app.open(app.server.admin, `/webhooks/deliveries?endpoint_id=${ep.id}`);
    await page.getByText('0 deliveries').waitFor();
    await app.create(`/api/v1/webhooks/endpoints/${ep.id}/test`, { event_type: 'deal.created' });
    await page.reload();
    await page.getByRole('cell', { name: 'pending' }).waitFor();
    await app.receiver.waitFor((r) => r.some((x) => x.path === '/slow'));
    app.receiver.release();
    // No reload from here: the table polls while the delivery waits, and shows it sent.
    await page.getByRole('cell', { name: 'sent' }).waitFor({ timeout: 20_000 });
  });

  test('every endpoint dialog passes axe; keyboard only: send a test event', async () => {
    const ep = await app.create('/api/v1/webhooks/endpoints', { name: 'Dialogs', url: app.receiver.url('/dialogs'), event_types: ['deal.created'] });
    const { page } = await app.open(app.server.owner, `/webhooks/endpoints/${ep.id}`);
    for (const [button, name] of [
      ['Edit', 'Edit Dialogs'],
      ['Rotate secret', 'Rotate the signing secret?'],
      ['Recover failed deliveries', 'Recover failed deliveries'],
      ['Delete', 'Delete this endpoint?'],
      ['Send test event', 'Send a test event'],
    ]) {
      await page.getByRole('button', { name: button, exact: true }).click();
      const dialog = page.getByRole(button === 'Rotate secret' || button === 'Delete' ? 'alertdialog' : 'dialog', { name });
      await dialog.waitFor();
      if (button === 'Rotate secret') await dialog.getByText('For the next 24 hours the old secret signs them too').waitFor();
      await assertAccessible(page, `${name} dialog`);
      await screenshot(page, `webhook-dialog-${button.toLowerCase().replaceAll(' ', '-')}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    // Keyboard only: back to the button (focus returned to it), Enter, Tab to "Send test", Enter.
    await pressOn(page, 'Send test event');
    await page.getByRole('dialog', { name: 'Send a test event' }).waitFor();
    for (let i = 0; i < 8 && (await focused.text(page)) !== 'Send test'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused.text(page), 'Send test');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/webhooks\/deliveries\/\d+$/);
    await page.getByText('sent', { exact: true }).waitFor();
  });

  test('keyboard only: add an endpoint, send it a test event, see it fail, Retry it', async () => {
    app.receiver.on('/keys', () => ({ status: 503 }));
    const { page, errors } = await app.open(app.server.owner, '/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await pressOn(page, 'Add endpoint');
    const add = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await add.waitFor();
    await page.keyboard.type('Keyboard receiver'); // the name field has focus
    await page.keyboard.press('Tab');
    await page.keyboard.type(app.receiver.url('/keys'));
    await pressOn(page, 'deal.created', ' ');
    await pressOn(page, 'Add endpoint');
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    await added.waitFor();
    await pressOn(page, 'Done');
    await added.waitFor({ state: 'detached' });
    const endpoint = (await app.get('/api/v1/webhooks/endpoints')).data.find((e: any) => e.name === 'Keyboard receiver');
    assert.deepEqual([endpoint.url, endpoint.event_types], [app.receiver.url('/keys'), ['deal.created']]);

    await pressOn(page, 'Keyboard receiver');
    await page.getByRole('heading', { name: 'Keyboard receiver' }).waitFor();
    await pressOn(page, 'Send test event');
    await page.getByRole('dialog', { name: 'Send a test event' }).waitFor();
    await pressOn(page, 'Send test');
    await page.waitForURL(/\/webhooks\/deliveries\/\d+$/);
    await page.getByText('failed', { exact: true }).waitFor();
    app.receiver.on('/keys', () => ({ status: 204 }));
    await pressOn(page, 'Retry');
    await page.getByText('sent', { exact: true }).waitFor();
    await page.getByRole('cell', { name: 'manual', exact: true }).waitFor();
    assert.equal(app.receiver.received.filter((r) => r.path === '/keys').length, 2);
    assert.deepEqual(errors, []);
  });

  test('a member sees endpoints without management, and the server refuses the member', async () => {
    const { page } = await app.open(app.server.member, '/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add endpoint' }).count(), 0);
    const session = await (await page.request.get('/api/v1/session')).json();
    const r = await page.request.post('/api/v1/webhooks/endpoints', {
      data: { name: 'x', url: app.receiver.url('/member'), event_types: ['deal.won'] },
      headers: { 'x-csrf-token': session.csrf_token },
    });
    assert.equal(r.status(), 403);
  });

  test('390 px: webhooks, an endpoint, deliveries and a delivery fit the width', async () => {
    const d = (await app.get('/api/v1/webhooks/deliveries')).data[0];
    const { page } = await app.open(app.server.owner, '/webhooks', { viewport: PHONE });
    // Each page is measured once its data has arrived (the last thing it draws).
    for (const [path, name, loaded] of [
      ['/webhooks', 'webhooks-390', page.getByRole('link', { name: 'Dialogs' })],
      [`/webhooks/endpoints/${d.endpoint_id}`, 'webhook-endpoint-390', page.getByRole('link', { name: `#${d.id}` })],
      ['/webhooks/deliveries', 'webhook-deliveries-390', page.getByText(/^\d+ deliveries$/)],
      [`/webhooks/deliveries/${d.id}`, 'webhook-delivery-390', page.getByRole('row', { name: /x-service-signature/ })],
    ] as const) {
      if (path !== '/webhooks') await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await loaded.first().waitFor();
      assert.equal(await horizontalOverflow(page), 0, `${path} at 390 px`);
      await screenshot(page, name);
    }
  });
});
