import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { outboxOf } from '../helpers/counts.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { addUser, asUser, signIn } from '../helpers/sessions.ts';

for (const engine of engines()) {
  describe(`work done in the console is attributed to its user [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** The same changes, through `send`; returns what they wrote. */
    async function scenario(send: (method: 'POST' | 'PATCH', url: string, body: unknown) => Promise<any>) {
      const org = await send('POST', '/api/v1/orgs', { name: 'Attributed Org' });
      const won = await send('POST', '/api/v1/deals', { org_id: org.id, title: 'Won here' });
      const closed = await send('PATCH', `/api/v1/deals/${won.id}`, { status: 'won' });
      const activity = await send('POST', `/api/v1/deals/${won.id}/activities`, { source_app: 'console', activity_kind: 'call', message: 'Called them' });
      const ticket = await send('POST', '/api/v1/support/tickets', {
        source_app: 'console',
        org_id: org.id,
        title: 'Help',
        details: 'Please',
        contact_email: 'c@example.com',
      });
      const log = await send('POST', `/api/v1/support/tickets/${ticket.id}/logs`, { note: 'Answered' });
      const lost = await send('POST', '/api/v1/deals', { org_id: org.id, title: 'Lost at once', status: 'lost' });
      return { closed, activity, ticket, log, lost };
    }

    test("activities carry user_id, support logs author_user_id, closed deals closed_by_user_id; the events match the API's", async () => {
      const acct = await createTestAccount(h);
      const member = await addUser(h, acct.accountId, 'member');
      const login = await signIn(h, member.email);
      const viaConsole = await scenario(async (method, url, body) => {
        const r = await asUser(h, login, method, url, { body });
        assert.ok(r.statusCode < 300, `${method} ${url}: ${r.body}`);
        return r.json();
      });
      assert.equal(viaConsole.closed.closed_by_user_id, member.id);
      assert.equal(viaConsole.lost.closed_by_user_id, member.id);
      assert.equal(viaConsole.activity.user_id, member.id);
      assert.equal(viaConsole.ticket.first_log.author_user_id, member.id);
      assert.equal(viaConsole.log.author_user_id, member.id);
      const history = await h.db.selectFrom('deal_status_history').select('changed_by_user_id').where('deal_id', '=', viaConsole.closed.id).execute();
      assert.ok(history.length >= 2 && history.every((r) => Number(r.changed_by_user_id) === member.id));

      const keyed = await createTestAccount(h);
      const viaKey = await scenario(async (method, url, body) => {
        const r = await call(h, method, url, { key: keyed.key, body });
        assert.ok(r.statusCode < 300, `${method} ${url}: ${r.body}`);
        return r.json();
      });
      assert.equal(viaKey.closed.closed_by_user_id, null);
      assert.equal(viaKey.activity.user_id, null);
      assert.equal(viaKey.log.author_user_id, null);
      const types = async (accountId: number) => (await outboxOf(h.db, accountId)).map((e) => e.event_type);
      assert.deepEqual(await types(acct.accountId), await types(keyed.accountId));
      assert.deepEqual(await types(acct.accountId), [
        'deal.created',
        'deal.won',
        'deal.activity.created',
        'support.ticket.opened',
        'support.log.created',
        'support.log.created',
        'deal.created',
        'deal.lost',
      ]);
    });
  });
}
