import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, horizontalOverflow, PHONE, pressOn, screenshot, tabTo } from '../helpers/browser.ts';
import { useConsoleServer } from '../helpers/console.ts';
import { orgWithContact } from './fixtures.ts';

describe('organizations and contacts (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer({ subscribeAll: true });

  test('an org page: its contacts, deals, tickets and activity; an external id linked there resolves through the API', async () => {
    const { org, contact } = await orgWithContact(app, 'Vandelay Industries', 'art@vandelay.example');
    await app.create('PUT /api/v1/orgs/' + org.id + '/external-ids', { source_app: 'billing', external_org_id: 'cus_77' });
    const deal = await app.create('/api/v1/deals', { org_id: org.id, contact_id: contact.id, title: 'Latex import', status: 'proposal' });
    await app.create(`/api/v1/deals/${deal.id}/activities`, { source_app: 'crm', message: 'Sent the price list', activity_kind: 'email' });
    await app.create('/api/v1/support/tickets', {
      source_app: 'helpdesk',
      org_id: org.id,
      contact_id: contact.id,
      title: 'Invoice question',
      details: 'Which VAT rate?',
    });
    const { page, errors } = await app.open(app.server.owner, '/orgs');

    await page.getByLabel('Name or domain contains').fill('vandel');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/q=vandel/);
    await assertAccessible(page, 'organizations');
    await screenshot(page, 'orgs-1280');
    await page.getByRole('link', { name: 'Vandelay Industries' }).click();
    await page.getByRole('heading', { name: 'Vandelay Industries', level: 1 }).waitFor();
    await assert.doesNotReject(page.getByRole('link', { name: contact.name }).waitFor());
    await assert.doesNotReject(page.getByRole('link', { name: 'Latex import' }).waitFor());
    await assert.doesNotReject(page.getByRole('link', { name: 'Invoice question' }).waitFor());
    await assert.doesNotReject(page.getByText('Sent the price list').waitFor());
    // Which app mapped which tenant id.
    const ids = page.getByRole('table', { name: 'External ids' });
    await assert.doesNotReject(ids.getByRole('row', { name: 'billing cus_77' }).waitFor());

    await page.getByLabel('Source app').fill('helpdesk');
    await page.getByLabel('External org id').fill('tenant-9');
    await page.getByRole('button', { name: 'Link' }).click();
    await ids.getByRole('row', { name: 'helpdesk tenant-9' }).waitFor();
    // A pair linked to another org is refused, and the form says why.
    const other = await app.create('/api/v1/orgs', { name: 'Other Org' });
    await app.create(`PUT /api/v1/orgs/${other.id}/external-ids`, { source_app: 'helpdesk', external_org_id: 'taken' });
    await page.getByLabel('Source app').fill('helpdesk');
    await page.getByLabel('External org id').fill('taken');
    await page.getByRole('button', { name: 'Link' }).click();
    await page.getByRole('alert').first().waitFor();
    await assertAccessible(page, 'org page');
    await screenshot(page, 'org-1280');
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'org-390');

    const resolved = await app.server.api('POST', '/api/v1/orgs/resolve', { source_app: 'helpdesk', external_org_id: 'tenant-9' });
    assert.equal(resolved.status, 200);
    assert.equal(resolved.json.status, 'mapped');
    assert.equal(resolved.json.org.id, org.id);
    assert.deepEqual(
      errors.filter((e: string) => !e.includes('409')),
      [],
    );
  });

  test('keyboard only: link an external id on an org page', async () => {
    const org = await app.create('/api/v1/orgs', { name: 'Keyed Org' });
    const { page, errors } = await app.open(app.server.admin, `/orgs/${org.id}`);
    await page.getByRole('heading', { name: 'Keyed Org', level: 1 }).waitFor();
    await tabTo(page, 'Source app');
    await page.keyboard.type('billing');
    await tabTo(page, 'External org id');
    await page.keyboard.type('acct-42');
    await pressOn(page, 'Link');
    await page.getByRole('table', { name: 'External ids' }).getByRole('row', { name: 'billing acct-42' }).waitFor();
    const resolved = await app.server.api('POST', '/api/v1/orgs/resolve', { source_app: 'billing', external_org_id: 'acct-42' });
    assert.equal(resolved.json.org.id, org.id);
    assert.deepEqual(errors, []);
  });

  test('a contact page: deals, tickets and audiences an owner may change and a member only sees', async () => {
    const { org, contact } = await orgWithContact(app, 'Kramerica', 'cosmo@kramerica.example');
    await app.create('/api/v1/deals', { org_id: org.id, contact_id: contact.id, title: 'Oil tanker bladder', status: 'new' });
    await app.create('/api/v1/deals', { org_id: org.id, title: 'Not this contact' });
    const news = await app.create('/api/v1/marketing-audiences', { name: 'Newsletter' });
    await app.create('/api/v1/marketing-audiences', { name: 'Beta testers' });
    const { page } = await app.open(app.server.owner, '/contacts');
    await page.getByLabel('Name or e-mail contains').fill('cosmo');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: contact.name }).click();
    await page.getByRole('heading', { name: contact.name, level: 1 }).waitFor();
    await assert.doesNotReject(page.getByRole('link', { name: 'Oil tanker bladder' }).waitFor());
    assert.equal(await page.getByRole('link', { name: 'Not this contact' }).count(), 0);
    await page.getByRole('checkbox', { name: 'Newsletter' }).check();
    await page.getByRole('button', { name: 'Save audiences' }).click();
    await page.getByText('Audiences saved.').waitFor();
    const audiences = await app.get(`/api/v1/contacts/${contact.id}/marketing-audiences`);
    assert.deepEqual(
      audiences.data.map((a: any) => a.id),
      [news.id],
    );
    await assertAccessible(page, 'contact page');
    await screenshot(page, 'contact-1280');
    await page.goto('/contacts');
    await page.locator('table tbody tr').first().waitFor();
    await assertAccessible(page, 'contacts');
    await screenshot(page, 'contacts-1280');
    await page.setViewportSize(PHONE);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'contacts-390');
    await page.goto('/orgs');
    await page.locator('table tbody tr').first().waitFor();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'orgs-390');

    const { page: memberPage } = await app.open(app.server.member, `/contacts/${contact.id}`, { viewport: PHONE });
    await memberPage.getByText('Newsletter').waitFor();
    assert.equal(await memberPage.getByRole('button', { name: 'Save audiences' }).count(), 0);
    assert.equal(await horizontalOverflow(memberPage), 0);
    await assertAccessible(memberPage, 'contact page (member, 390 px)');
    await screenshot(memberPage, 'contact-390');
  });
});
