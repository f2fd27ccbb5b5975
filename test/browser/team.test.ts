import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, BROWSER_TEST, horizontalOverflow, PHONE, pressOn, screenshot, tabTo } from './helpers/browser.ts';
import { useConsoleServer } from './helpers/console.ts';

describe('Team page (browser)', BROWSER_TEST, () => {
  const app = useConsoleServer();

  test('add a user, change the role, deactivate them (their open session ends at once), reactivate', async () => {
    const { page, errors } = await app.open(app.server.owner, '/deals');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await assertAccessible(page, 'team');

    await page.getByRole('button', { name: 'Add user' }).click();
    const add = page.getByRole('dialog', { name: 'Add a team user' });
    await add.getByLabel('Email').fill('not-an-email');
    await add.getByRole('button', { name: 'Add user' }).click();
    await add.getByText('Enter an email address.').waitFor();
    await assertAccessible(page, 'add user dialog with errors');
    await add.getByLabel('Email').fill(app.server.member.email); // taken: the server's answer shows
    await add.getByLabel('Name').fill('Dup <script>window.__xss=1</script>');
    await add.getByLabel('First password').fill('a-first-password');
    await add.getByRole('button', { name: 'Add user' }).click();
    await add.getByText(/already exists/).waitFor();
    await add.getByLabel('Email').fill('nina.new@example.com');
    await add.getByLabel('Name').fill('Nina <img src=x onerror=window.__xss=1>');
    await add.getByRole('button', { name: 'Add user' }).click();
    await add.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /nina\.new@example\.com/ });
    await row.waitFor();
    assert.match(await row.innerText(), /member/);

    // Nina signs in elsewhere.
    const { page: ninaPage } = await app.open({ id: 0, email: 'nina.new@example.com', password: 'a-first-password', name: 'Nina' }, '/deals');
    await ninaPage.getByRole('heading', { name: 'Deals' }).waitFor();

    await row.getByRole('button', { name: /^Edit Nina/ }).click();
    const edit = page.getByRole('dialog', { name: /^Edit Nina/ });
    await edit.getByLabel('Role').selectOption('admin');
    await assertAccessible(page, 'edit user dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('admin', { exact: true }).waitFor();

    await row.getByRole('button', { name: /^Deactivate Nina/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Deactivate this user?' });
    await assertAccessible(page, 'deactivate confirmation');
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Deactivated').waitFor();
    await screenshot(page, 'team-1280');
    assert.equal((await ninaPage.request.get('/api/v1/deals')).status(), 401, "the deactivated user's session is refused at once");
    await ninaPage.reload();
    await ninaPage.waitForURL(/\/sign-in/);

    await row.getByRole('button', { name: /^Reactivate Nina/ }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    assert.equal(await page.evaluate('window.__xss'), undefined, 'HTML in a name stays text');
    assert.deepEqual(errors, []);
  });

  test('keyboard only: add a user, then change their role', async () => {
    const { page, errors } = await app.open(app.server.owner, '/team');
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await pressOn(page, 'Add user');
    const add = page.getByRole('dialog', { name: 'Add a team user' });
    await add.waitFor();
    await page.keyboard.type('kim.keys@example.com'); // the e-mail field has focus
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keys');
    await tabTo(page, 'First password');
    await page.keyboard.type('a-keyboard-password');
    await page.keyboard.press('Enter');
    await add.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /kim\.keys@example\.com/ });
    await row.getByText('member', { exact: true }).waitFor();

    await pressOn(page, 'Edit Kim Keys');
    const edit = page.getByRole('dialog', { name: /^Edit Kim Keys/ });
    await edit.waitFor();
    await tabTo(page, 'Role');
    await page.keyboard.type('admin');
    await pressOn(page, 'Save');
    await edit.waitFor({ state: 'detached' });
    await row.getByText('admin', { exact: true }).waitFor();
    const users = await app.get('/api/v1/users?per_page=100');
    assert.equal(users.data.find((u: any) => u.email === 'kim.keys@example.com')?.role, 'admin');
    assert.deepEqual(errors, []);
  });

  test('an admin cannot make an owner and is refused by the server when trying', async () => {
    const { page } = await app.open(app.server.admin, '/team');
    const ownerRow = page.getByRole('row', { name: new RegExp(app.server.owner.email.replace('.', '\\.')) });
    await ownerRow.waitFor();
    assert.equal(await ownerRow.getByRole('button').count(), 0, 'no actions on an owner for an admin');
    const session = await (await page.request.get('/api/v1/session')).json();
    const promote = await page.request.patch(`/api/v1/users/${app.server.member.id}`, {
      data: { role: 'owner' },
      headers: { 'x-csrf-token': session.csrf_token },
    });
    assert.equal(promote.status(), 403);
  });

  test('a member is refused team management by the server', async () => {
    const { page } = await app.open(app.server.member, '/deals');
    const session = await (await page.request.get('/api/v1/session')).json();
    const r = await page.request.patch(`/api/v1/users/${app.server.admin.id}`, { data: { is_active: false }, headers: { 'x-csrf-token': session.csrf_token } });
    assert.equal(r.status(), 403);
    await page.goto('/team');
    await page.waitForURL(/\/deals$/);
  });

  test('390 px: the team page fits', async () => {
    const { page } = await app.open(app.server.owner, '/team', { viewport: PHONE });
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'team-390');
  });
});
