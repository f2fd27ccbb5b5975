import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, focused, horizontalOverflow, PHONE, pressOn, screenshot, tabTo } from '../helpers/browser.ts';
import { useConsoleServer } from '../helpers/console.ts';
import { orgWithContact, waitForTrue } from './fixtures.ts';

describe('tickets (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer({ subscribeAll: true });

  test('open a ticket by keyboard, log, assign, close and reopen: the ticket, its logs, the feed and the webhooks agree', async () => {
    const { org, contact } = await orgWithContact(app, 'Soylent', 'help@soylent.example');
    const owner = app.server.owner;
    const { page, errors } = await app.open(owner, '/tickets');
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await assertAccessible(page, 'tickets (empty open view)');

    // The new-ticket form, by keyboard only.
    await pressOn(page, 'New ticket');
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    await dialog.waitFor();
    await pressOn(page, 'Open ticket');
    await assert.doesNotReject(dialog.getByText('Required.').first().waitFor());
    await tabTo(page, /^Organization/, { back: true });
    await page.keyboard.type('Soyl');
    await dialog
      .page()
      .getByRole('option', { name: /Soylent/ })
      .waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await dialog.locator('option', { hasText: contact.name }).waitFor({ state: 'attached' }); // the org's contacts loaded
    await tabTo(page, 'Contact');
    await page.keyboard.type(contact.name); // a closed <select> picks the option typed
    assert.equal(await dialog.getByLabel('Contact', { exact: true }).inputValue(), String(contact.id));
    await tabTo(page, 'Title');
    await page.keyboard.type('Cannot export reports');
    await page.keyboard.press('Tab');
    await page.keyboard.type('The export button spins forever.');
    await assertAccessible(page, 'new-ticket dialog');
    await screenshot(page, 'ticket-new-1280');
    await pressOn(page, 'Open ticket');
    await page.waitForURL(/\/tickets\/\d+$/);
    const id = Number(page.url().split('/').pop());
    await page.getByRole('heading', { name: 'Cannot export reports', level: 1 }).waitFor();
    const created = await app.get(`/api/v1/support/tickets/${id}`);
    assert.deepEqual([created.org_id, created.contact_id, created.status], [org.id, contact.id, 'open']);
    await app.waitForEvent('support.ticket.opened', (p) => p.slog_id === id);

    // A log, written as the signed-in user.
    await page.getByLabel('Note').fill('Reproduced on Chrome; escalating.');
    await page.getByRole('button', { name: 'Add log' }).click();
    const logs = page.getByRole('list', { name: 'Logs' });
    await logs.getByText('Reproduced on Chrome; escalating.').waitFor();
    const apiLogs = await app.get(`/api/v1/support/tickets/${id}/logs`);
    const mine = apiLogs.data.find((l: any) => l.note === 'Reproduced on Chrome; escalating.');
    assert.equal(mine.author_user_id, owner.id);
    await app.waitForEvent('support.log.created', (p) => p.support_log_id === mine.id);

    // Assign: only support-enabled users are offered (the owner is; the member is not).
    const ownerSelect = page.getByLabel('Owner', { exact: true });
    const offered = await ownerSelect.locator('option').allTextContents();
    assert.ok(offered.includes(owner.name));
    assert.ok(!offered.includes(app.server.member.name));
    await ownerSelect.selectOption({ label: owner.name });
    await page.getByRole('button', { name: 'Assign' }).click();
    await waitForTrue(page, `document.querySelector('.facts')?.textContent?.includes('Olivia')`);
    assert.equal((await app.get(`/api/v1/support/tickets/${id}`)).owner_user_id, owner.id);

    await page.getByRole('button', { name: 'Close ticket' }).click();
    await page.getByRole('button', { name: 'Reopen ticket' }).waitFor();
    assert.equal((await app.get(`/api/v1/support/tickets/${id}`)).status, 'closed');
    const closed = await app.waitForEvent('support.ticket.closed', (p) => p.slog_id === id);
    assert.equal(closed.slog.status, 'closed');
    await assertAccessible(page, 'closed ticket');
    await screenshot(page, 'ticket-closed-1280');
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'ticket-closed-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Reopen ticket' }).click();
    await page.getByRole('button', { name: 'Close ticket' }).waitFor();
    assert.equal((await app.get(`/api/v1/support/tickets/${id}`)).status, 'open');
    await app.waitForEvent(
      'support.ticket.opened',
      (p) => p.slog_id === id && app.events('support.ticket.opened').filter((e) => e.slog_id === id).length === 2,
    );

    // "Mine" lists it (assigned to me, not closed); the closed view does not.
    await page.goto('/tickets?view=mine');
    await page.getByRole('link', { name: 'Cannot export reports' }).waitFor();
    await page.getByRole('link', { name: 'Closed', exact: true }).click();
    await page.waitForURL(/view=closed/);
    await page.getByText('No ticket in this view').waitFor();

    // The feed shows the log, linking to the ticket.
    await page.goto(`/activity?source=support_log&ticket_id=${id}`);
    const feed = page.getByRole('list', { name: 'Activity feed' });
    await feed.getByText('Reproduced on Chrome; escalating.').waitFor();
    await assert.doesNotReject(
      feed
        .getByRole('link', { name: `Open ticket #${id}` })
        .first()
        .waitFor(),
    );
    await assertAccessible(page, 'activity feed');
    await screenshot(page, 'activity-1280');
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'activity-390');
    assert.deepEqual(errors, []);
  });

  test('keyboard only: add a log, assign an owner, close and reopen a ticket', async () => {
    const { org, contact } = await orgWithContact(app, 'Keys Inc', 'keys@keys.example');
    const ticket = await app.create('/api/v1/support/tickets', {
      source_app: 'hd',
      org_id: org.id,
      contact_id: contact.id,
      title: 'Keyboard ticket',
      details: 'D',
    });
    const { page, errors } = await app.open(app.server.admin, `/tickets/${ticket.id}`);
    await page.getByRole('heading', { name: 'Keyboard ticket', level: 1 }).waitFor();
    await tabTo(page, 'Note');
    await page.keyboard.type('Typed without a mouse');
    await pressOn(page, 'Add log');
    await page.getByRole('list', { name: 'Logs' }).getByText('Typed without a mouse').waitFor();
    const logs = await app.get(`/api/v1/support/tickets/${ticket.id}/logs`);
    assert.equal(logs.data.find((l: any) => l.note === 'Typed without a mouse')?.author_user_id, app.server.admin.id);

    await tabTo(page, 'Owner', { back: true });
    await page.keyboard.type(app.server.owner.name); // the support-enabled owner
    await pressOn(page, 'Assign');
    await waitForTrue(page, `document.querySelector('.facts')?.textContent?.includes(${JSON.stringify(app.server.owner.name)})`);
    assert.equal((await app.get(`/api/v1/support/tickets/${ticket.id}`)).owner_user_id, app.server.owner.id);

    await tabTo(page, 'Close ticket', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Reopen ticket' }).waitFor();
    assert.equal((await app.get(`/api/v1/support/tickets/${ticket.id}`)).status, 'closed');
    // The focus stays on the button just pressed, now "Reopen ticket".
    assert.equal(await focused.text(page), 'Reopen ticket');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close ticket' }).waitFor();
    assert.equal((await app.get(`/api/v1/support/tickets/${ticket.id}`)).status, 'open');
    assert.deepEqual(errors, []);
  });

  test('ticket views keep their filters and sort in the URL; the list fits 390 px', async () => {
    const { org } = await orgWithContact(app, 'Views Co', 'views@views.example');
    for (const title of ['Zeta issue', 'Alpha issue']) {
      await app.create('/api/v1/support/tickets', { source_app: 'test', org_id: org.id, contact_email: 'views@views.example', title, details: 'D' });
    }
    const { page } = await app.open(app.server.owner, '/tickets');
    await page.getByLabel('Sort by').selectOption('title');
    await page.getByLabel('Direction').selectOption('asc');
    await page.getByLabel('Title contains').fill('issue');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/q=issue/);
    await waitForTrue(page, `document.querySelector('table tbody tr td')?.textContent === 'Alpha issue'`);
    await page.reload();
    await waitForTrue(page, `document.querySelector('table tbody tr td')?.textContent === 'Alpha issue'`);
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'title');
    await screenshot(page, 'tickets-1280');
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await assertAccessible(page, 'tickets at 390 px');
    await screenshot(page, 'tickets-390');
  });
});
