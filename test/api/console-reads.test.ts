import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { seedContact, seedDeal, seedOrg } from './deals.fixtures.ts';

// The reads and edits the console's deal, board, contact and ticket pages rely on.
const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

for (const engine of engines()) {
  describe(`console reads and edits [${engine}]`, () => {
    let h: Harness;
    const clock = new FixedClock(T0);
    before(async () => {
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    const post = async (a: TestAccount, url: string, body: Record<string, unknown>) => {
      const res = await call(h, 'POST', url, { key: a.key, body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const patch = (a: TestAccount, id: number, body: unknown) => call(h, 'PATCH', `/api/v1/deals/${id}`, { key: a.key, body });

    test('a deal shows last_activity_at: its creation, then its newest activity; status moves leave it', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      clock.set(T0);
      const deal = await post(a, '/api/v1/deals', { org_id: org, title: 'Pilot' });
      assert.equal(deal.last_activity_at, iso(T0));
      clock.set(T0 + 3_600_000);
      await post(a, `/api/v1/deals/${deal.id}/activities`, { source_app: 'crm', message: 'Called' });
      // Another process whose clock runs behind logs one: the deal's time never moves back.
      clock.set(T0 + 1_800_000);
      await post(a, `/api/v1/deals/${deal.id}/activities`, { source_app: 'crm', message: 'Mailed' });
      clock.set(T0 + 7_200_000);
      assert.equal((await patch(a, deal.id, { status: 'qualified' })).json().last_activity_at, iso(T0 + 3_600_000));
      const listed = (await call(h, 'GET', '/api/v1/deals', { key: a.key })).json().data[0];
      assert.equal(listed.last_activity_at, iso(T0 + 3_600_000));
    });

    test('status history: every change with its author and time, newest first or oldest first, paged', async () => {
      const a = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      clock.set(T0);
      const deal = await post(a, '/api/v1/deals', { org_id: org, title: 'Pilot' });
      const moves = ['qualified', 'proposal', 'lost', 'negotiation', 'won'] as const;
      for (const [i, to] of moves.entries()) {
        clock.set(T0 + (i + 1) * 1000);
        const body = to === 'lost' ? { status: to, lost_reason: { code: 'price', label: 'Too expensive' } } : { status: to };
        assert.equal((await patch(a, deal.id, body)).statusCode, 200);
      }
      const res = await call(h, 'GET', `/api/v1/deals/${deal.id}/status-history`, { key: a.key });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      const chain: [string | null, string][] = [
        [null, 'new'],
        ['new', 'qualified'],
        ['qualified', 'proposal'],
        ['proposal', 'lost'],
        ['lost', 'negotiation'],
        ['negotiation', 'won'],
      ];
      assert.deepEqual(
        body.data.map((r: any) => [r.from_status, r.to_status, r.changed_at]),
        chain.map((c, i) => [...c, iso(T0 + i * 1000)]).reverse(),
      );
      assert.ok(body.data.every((r: any) => r.deal_id === deal.id && r.changed_by_user_id === null && Number.isInteger(r.id)));
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 6, pages: 1, has_next: false, has_prev: false });
      const asc = (await call(h, 'GET', `/api/v1/deals/${deal.id}/status-history?direction=asc&per_page=2&page=2`, { key: a.key })).json();
      assert.deepEqual(
        asc.data.map((r: any) => r.to_status),
        ['proposal', 'lost'],
      );
      assert.deepEqual(asc.pagination, { page: 2, per_page: 2, total: 6, pages: 3, has_next: true, has_prev: true });
    });

    test("status history: bad input is 422 naming the parameter; another account's deal is 404", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const theirs = await seedDeal(h, b.accountId, { org_id: await seedOrg(h, b.accountId) });
      const mine = await seedDeal(h, a.accountId, { org_id: await seedOrg(h, a.accountId) });
      assertError(await call(h, 'GET', `/api/v1/deals/${theirs}/status-history`, { key: a.key }), 404, 'deal_not_found');
      assertError(await call(h, 'GET', '/api/v1/deals/999999999/status-history', { key: a.key }), 404, 'deal_not_found');
      for (const [url, field] of [
        ['/api/v1/deals/x/status-history', 'id'],
        [`/api/v1/deals/${mine}/status-history?direction=up`, 'direction'],
        [`/api/v1/deals/${mine}/status-history?per_page=101`, 'per_page'],
        [`/api/v1/deals/${mine}/status-history?page=0`, 'page'],
      ]) {
        const err = assertError(await call(h, 'GET', url, { key: a.key }), 422, 'validation_error');
        assert.ok(field in err.fields, `${url}: ${JSON.stringify(err.fields)}`);
      }
      await assertCommonAuth(h, a, { method: 'GET', url: `/api/v1/deals/${mine}/status-history`, scope: 'deals:read' });
    });

    test('lost reasons: distinct code and label of lost deals now, most recently lost first, with counts; reopened deals drop out', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const lose = async (at: number, code: string, label: string) => {
        clock.set(at);
        return post(a, '/api/v1/deals', { org_id: org, title: 'D', status: 'lost', lost_reason: { code, label } });
      };
      await lose(T0, 'price', 'Too expensive');
      await lose(T0 + 1000, 'timing', 'Bad timing');
      await lose(T0 + 2000, 'price', 'Too expensive');
      const reopened = await lose(T0 + 3000, 'rival', 'Chose a competitor');
      await post(a, '/api/v1/deals', { org_id: org, title: 'Lost, no reason', status: 'lost' });
      await post(a, '/api/v1/deals', { org_id: org, title: 'Won', status: 'won' });
      await post(b, '/api/v1/deals', {
        org_id: await seedOrg(h, b.accountId),
        title: 'Other account',
        status: 'lost',
        lost_reason: { code: 'zzz', label: 'Theirs' },
      });
      clock.set(T0 + 4000);
      assert.equal((await patch(a, reopened.id, { status: 'new' })).statusCode, 200);
      const res = await call(h, 'GET', '/api/v1/deals/lost-reasons', { key: a.key });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        data: [
          { code: 'price', label: 'Too expensive', deals: 2, last_lost_at: iso(T0 + 2000) },
          { code: 'timing', label: 'Bad timing', deals: 1, last_lost_at: iso(T0 + 1000) },
        ],
        pagination: { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false },
      });
      const second = (await call(h, 'GET', '/api/v1/deals/lost-reasons?per_page=1&page=2', { key: a.key })).json();
      assert.deepEqual(
        second.data.map((r: any) => r.code),
        ['timing'],
      );
      assertError(await call(h, 'GET', '/api/v1/deals/lost-reasons?per_page=0', { key: a.key }), 422, 'validation_error');
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/deals/lost-reasons', scope: 'deals:read' });
    });

    test('PATCH contact_id: a contact of the deal org sets it, null clears it, with no event; others are refused and change nothing', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const otherOrg = await seedOrg(h, a.accountId, 'Other');
      const contact = await seedContact(h, a.accountId, org, 'pat@acme.io');
      const elsewhere = await seedContact(h, a.accountId, otherOrg, 'lee@other.io');
      const theirs = await seedContact(h, b.accountId, await seedOrg(h, b.accountId), 'x@b.io');
      clock.set(T0);
      const deal = await post(a, '/api/v1/deals', { org_id: org, title: 'Pilot' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      clock.set(T0 + 1000);
      const set = await patch(a, deal.id, { contact_id: contact });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { ...deal, contact_id: contact, updated_at: iso(T0 + 1000) });
      const before = await tableCounts(h.db);
      assertError(await patch(a, deal.id, { contact_id: theirs }), 404, 'contact_not_found');
      assertError(await patch(a, deal.id, { contact_id: 999999999 }), 404, 'contact_not_found');
      const err = assertError(await patch(a, deal.id, { contact_id: elsewhere }), 422, 'validation_error');
      assert.deepEqual(err.fields, { contact_id: 'not_in_org' });
      for (const bad of ['x', 0, 1.5, true])
        assert.ok('contact_id' in assertError(await patch(a, deal.id, { contact_id: bad }), 422, 'validation_error').fields);
      assert.deepEqual(await tableCounts(h.db), before);
      assert.equal((await call(h, 'GET', `/api/v1/deals/${deal.id}`, { key: a.key })).json().contact_id, contact);
      clock.set(T0 + 2000);
      assert.equal((await patch(a, deal.id, { contact_id: null })).json().contact_id, null);
      assert.equal((await outboxOf(h.db, a.accountId)).length, seen, 'contact edits emit nothing');
    });

    test("contact_id filters deals and tickets; another account's contact is 404", async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const pat = await seedContact(h, a.accountId, org, 'pat@acme.io');
      const lee = await seedContact(h, a.accountId, org, 'lee@acme.io');
      const theirs = await seedContact(h, b.accountId, await seedOrg(h, b.accountId), 'x@b.io');
      const d1 = await seedDeal(h, a.accountId, { org_id: org, contact_id: pat, created_at: T0 });
      await seedDeal(h, a.accountId, { org_id: org, contact_id: lee, created_at: T0 + 1 });
      const d3 = await seedDeal(h, a.accountId, { org_id: org, contact_id: pat, created_at: T0 + 2, status: 'won' });
      assert.deepEqual(
        (await call(h, 'GET', `/api/v1/deals?contact_id=${pat}`, { key: a.key })).json().data.map((d: any) => d.id),
        [d3, d1],
      );
      assert.deepEqual(
        (await call(h, 'GET', `/api/v1/deals?contact_id=${pat}&status=won`, { key: a.key })).json().data.map((d: any) => d.id),
        [d3],
      );
      const ticket = await post(a, '/api/v1/support/tickets', { source_app: 'console', org_id: org, contact_id: lee, title: 'T', details: 'D' });
      await post(a, '/api/v1/support/tickets', { source_app: 'console', org_id: org, contact_id: pat, title: 'U', details: 'D' });
      assert.deepEqual(
        (await call(h, 'GET', `/api/v1/support/tickets?contact_id=${lee}`, { key: a.key })).json().data.map((t: any) => t.id),
        [ticket.id],
      );
      for (const url of [`/api/v1/deals?contact_id=${theirs}`, `/api/v1/support/tickets?contact_id=${theirs}`]) {
        assertError(await call(h, 'GET', url, { key: a.key }), 404, 'contact_not_found');
      }
      for (const url of ['/api/v1/deals?contact_id=x', '/api/v1/support/tickets?contact_id=0']) {
        assert.ok('contact_id' in assertError(await call(h, 'GET', url, { key: a.key }), 422, 'validation_error').fields);
      }
    });

    test('a ticket created for an org id: opened with its first log and both events, no mapping made; bad org ids refused and nothing written', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await seedOrg(h, a.accountId);
      const contact = await seedContact(h, a.accountId, org, 'pat@acme.io');
      const theirOrg = await seedOrg(h, b.accountId);
      clock.set(T0);
      const seen = (await outboxOf(h.db, a.accountId)).length;
      const ticket = await post(a, '/api/v1/support/tickets', {
        source_app: 'console',
        org_id: org,
        contact_id: contact,
        title: 'Login fails',
        details: 'SSO loop',
      });
      assert.equal(ticket.org_id, org);
      assert.equal(ticket.contact_id, contact);
      assert.equal(ticket.status, 'open');
      assert.equal(ticket.first_log.note, 'SSO loop');
      assert.deepEqual(
        (await outboxOf(h.db, a.accountId)).slice(seen).map((e) => e.event_type),
        ['support.ticket.opened', 'support.log.created'],
      );
      const mapped = await h.db.selectFrom('org_external_ids').select('id').where('account_id', '=', a.accountId).execute();
      assert.equal(mapped.length, 0);
      // By e-mail, a new contact is made in that org.
      const byEmail = await post(a, '/api/v1/support/tickets', { source_app: 'console', org_id: org, contact_email: 'new@acme.io', title: 'T', details: 'D' });
      assert.notEqual(byEmail.contact_id, contact);

      const before = await tableCounts(h.db);
      const base = { source_app: 'console', contact_id: contact, title: 'T', details: 'D' };
      assertError(await call(h, 'POST', '/api/v1/support/tickets', { key: a.key, body: { ...base, org_id: theirOrg } }), 404, 'org_not_found');
      const both = assertError(
        await call(h, 'POST', '/api/v1/support/tickets', { key: a.key, body: { ...base, org_id: org, external_org_id: 't-1' } }),
        422,
        'validation_error',
      );
      assert.deepEqual(both.fields, { org_id: 'not_allowed' });
      const neither = assertError(await call(h, 'POST', '/api/v1/support/tickets', { key: a.key, body: base }), 422, 'validation_error');
      assert.deepEqual(neither.fields, { external_org_id: 'required' });
      for (const bad of ['1', 0, null]) {
        const err = assertError(await call(h, 'POST', '/api/v1/support/tickets', { key: a.key, body: { ...base, org_id: bad } }), 422, 'validation_error');
        assert.ok('org_id' in err.fields, JSON.stringify(err.fields));
      }
      const otherOrg = await seedOrg(h, a.accountId, 'Other');
      const countsBefore = await tableCounts(h.db);
      const wrongContact = assertError(
        await call(h, 'POST', '/api/v1/support/tickets', { key: a.key, body: { ...base, org_id: otherOrg } }),
        422,
        'validation_error',
      );
      assert.deepEqual(wrongContact.fields, { contact_id: 'not_in_org' });
      assert.deepEqual(await tableCounts(h.db), countsBefore);
      assert.deepEqual({ ...(await tableCounts(h.db)), orgs: before.orgs }, before);
    });
  });
}
