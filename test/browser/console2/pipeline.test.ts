import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_TEST, focused, horizontalOverflow, PHONE, pressOn, screenshot, tabTo } from '../helpers/browser.ts';
import { useConsoleServer } from '../helpers/console.ts';
import { orgWithContact, waitForTrue } from './fixtures.ts';

/** Drags a card by its handle onto a column with the mouse, in small steps as a hand does. */
async function drag(page: Page, title: string, status: string): Promise<void> {
  const handle = page.getByRole('button', { name: `Drag ${title}` });
  const target = page.locator(`section[data-status="${status}"]`);
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 12 });
  await page.mouse.up();
}

const card = (page: Page, status: string, title: string) => page.locator(`section[data-status="${status}"] li.card`, { hasText: title });

describe('pipeline board (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer({ subscribeAll: true });

  test('a card dragged to won and one moved to lost with a reason: the deal, its history, analytics and the webhooks agree', async () => {
    const { org } = await orgWithContact(app, 'Initech', 'buyer@initech.example');
    const owner = app.server.owner;
    const signed = await app.create('/api/v1/deals', {
      org_id: org.id,
      title: 'Initech renewal',
      status: 'proposal',
      value: '1200.00',
      currency: 'EUR',
      owner_user_id: owner.id,
    });
    const dropped = await app.create('/api/v1/deals', {
      org_id: org.id,
      title: 'Initech expansion',
      status: 'negotiation',
      next_followup_at: '2020-01-01T00:00:00Z',
    });
    // An earlier lost deal makes its reason one of the "recent reasons" the dialog offers.
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Old loss', status: 'lost', lost_reason: { code: 'timing', label: 'Bad timing' } });
    const before = await app.get('/api/v1/analytics/sales?range=today');

    const { page, errors } = await app.open(owner, '/pipeline');
    await card(page, 'proposal', 'Initech renewal').waitFor();
    // The card's facts: value, owner, an overdue follow-up, days since the last activity.
    await assert.doesNotReject(card(page, 'proposal', 'Initech renewal').getByText('1,200.00 EUR').waitFor());
    await assert.doesNotReject(card(page, 'proposal', 'Initech renewal').getByText(owner.name).waitFor());
    await assert.doesNotReject(card(page, 'negotiation', 'Initech expansion').getByText('Overdue').waitFor());
    await assert.doesNotReject(card(page, 'negotiation', 'Initech expansion').getByText('Today').waitFor());
    await assertAccessible(page, 'pipeline board');
    await screenshot(page, 'pipeline-1280');

    await drag(page, 'Initech renewal', 'won');
    await card(page, 'won', 'Initech renewal').waitFor();

    // The keyboard way: the card's Move menu, then the lost-reason dialog, all by keys.
    await pressOn(page, 'Move Initech expansion');
    await page.getByRole('menuitem', { name: 'To Lost' }).waitFor();
    for (let i = 0; i < 6 && (await focused.text(page)) !== 'To Lost'; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await focused.text(page), 'To Lost');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Mark “Initech expansion” as lost' });
    await dialog.waitFor();
    await assert.doesNotReject(dialog.getByRole('button', { name: /Use reason Bad timing \(timing\)/ }).waitFor());
    await assertAccessible(page, 'lost-reason dialog');
    await screenshot(page, 'pipeline-lost-dialog-1280');
    // Submitting empty is caught beside the fields; then a reason typed by keyboard.
    await pressOn(page, 'Mark as lost');
    await assert.doesNotReject(dialog.getByText('Required.').first().waitFor());
    await tabTo(page, 'Reason code', { back: true });
    await page.keyboard.type('price');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Too expensive');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await card(page, 'lost', 'Initech expansion').waitFor();

    // The deals as the API tells them: closed by the signed-in owner, with the reason.
    const won = await app.get(`/api/v1/deals/${signed.id}`);
    const lost = await app.get(`/api/v1/deals/${dropped.id}`);
    assert.equal(won.status, 'won');
    assert.equal(won.closed_by_user_id, owner.id);
    assert.equal(lost.status, 'lost');
    assert.deepEqual(lost.lost_reason, { code: 'price', label: 'Too expensive' });
    assert.equal(lost.closed_by_user_id, owner.id);
    const history = await app.get(`/api/v1/deals/${dropped.id}/status-history`);
    assert.deepEqual(
      history.data.map((h: any) => [h.from_status, h.to_status, h.changed_by_user_id]),
      [
        ['negotiation', 'lost', owner.id],
        [null, 'negotiation', null],
      ],
    );

    // The deal page shows the same history.
    await page.getByRole('link', { name: 'Initech expansion' }).click();
    await page.getByRole('heading', { name: 'Initech expansion', level: 1 }).waitFor();
    const shown = page.getByRole('list', { name: 'Status history' });
    await assert.doesNotReject(shown.getByText('Negotiation → Lost').waitFor());
    await assert.doesNotReject(shown.getByText(`by ${owner.name}`).waitFor());

    // Analytics: one more won and lost today, the reason counted, and the dashboard shows the API's figures.
    const after = await app.get('/api/v1/analytics/sales?range=today');
    assert.equal(after.won, before.won + 1);
    assert.equal(after.lost, before.lost + 1);
    assert.equal(after.lost_reasons.find((r: any) => r.code === 'price')?.count, 1);
    await page.goto('/analytics?range=today');
    await page.locator('[data-metric="sales.won"] [data-value]').waitFor();
    assert.equal(await page.locator('[data-metric="sales.won"] [data-value]').getAttribute('data-value'), String(after.won));
    assert.equal(await page.locator('[data-metric="sales.lost"] [data-value]').getAttribute('data-value'), String(after.lost));
    assert.equal(await page.locator('[data-metric="sales.lost_reasons.price"] [data-value]').getAttribute('data-value'), '1');

    // The webhooks, delivered to the HTTPS receiver: deal.won and deal.lost with the reason.
    const wonEvent = await app.waitForEvent('deal.won', (p) => p.deal_id === signed.id);
    assert.equal(wonEvent.deal.status, 'won');
    const lostEvent = await app.waitForEvent('deal.lost', (p) => p.deal_id === dropped.id);
    assert.deepEqual(lostEvent.lost_reason, { code: 'price', label: 'Too expensive' });
    assert.equal(lostEvent.deal.closed_by_user_id, owner.id);
    assert.deepEqual(errors, []);
  });

  test('columns load a page at a time and filter by owner and text; the board fits 390 px', async () => {
    const org = await app.create('/api/v1/orgs', { name: 'Paging Co' });
    for (let i = 1; i <= 23; i++) await app.create('/api/v1/deals', { org_id: org.id, title: `Pager deal ${String(i).padStart(2, '0')}`, status: 'qualified' });
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Owned by admin', status: 'qualified', owner_user_id: app.server.admin.id });
    const { page } = await app.open(app.server.owner, `/pipeline?org=${org.id}`);
    const column = page.locator('section[data-status="qualified"]');
    await column.locator('li.card').first().waitFor();
    assert.equal(await column.locator('li.card').count(), 20);
    assert.equal((await column.locator('.count').textContent())?.trim(), '24');
    await column.getByRole('button', { name: 'Show more qualified deals' }).click();
    await waitForTrue(page, `document.querySelectorAll('section[data-status="qualified"] li.card').length === 24`);
    await page.getByLabel('Owner').selectOption({ label: app.server.admin.name });
    await page.waitForURL(/owner=/);
    await waitForTrue(page, `document.querySelectorAll('section[data-status="qualified"] li.card').length === 1`);
    await page.reload();
    await column.locator('li.card', { hasText: 'Owned by admin' }).waitFor();
    assert.equal(await column.locator('li.card').count(), 1);

    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await assertAccessible(page, 'pipeline at 390 px');
    await screenshot(page, 'pipeline-390');
  });
});
