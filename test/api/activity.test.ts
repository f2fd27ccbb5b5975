import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { userRow } from '../helpers/user-row.ts';

const T0 = Date.UTC(2026, 10, 10, 12, 0, 0);
const HOUR = 3_600_000;

/** A small account world: two orgs, two users, a deal with a contact, a ticket without one. */
async function world(h: Harness) {
  const a = await createTestAccount(h);
  const acc = a.accountId;
  const org = async (name: string) =>
    (
      await h.db
        .insertInto('orgs')
        .values({ account_id: acc, name, name_lc: name.toLowerCase(), domain: null, created_at: T0, updated_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const user = async (email: string, display_name: string) =>
    (
      await h.db
        .insertInto('users')
        .values(userRow({ accountId: acc, email, displayName: display_name, supportEnabled: true, at: T0 }))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const acme = await org('Acme');
  const globex = await org('Globex');
  const ann = await user(`ann-${acc}@example.com`, 'Ann');
  const bob = await user(`bob-${acc}@example.com`, 'Bob');
  const contact = (
    await h.db
      .insertInto('contacts')
      .values({
        account_id: acc,
        org_id: acme,
        name: 'Carla',
        name_lc: 'carla',
        email: 'carla@acme.io',
        email_lc: 'carla@acme.io',
        phone: null,
        title: null,
        created_at: T0,
        updated_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const deal = async (orgId: number, contactId: number | null) =>
    (
      await h.db
        .insertInto('deals')
        .values({
          account_id: acc,
          org_id: orgId,
          contact_id: contactId,
          owner_user_id: ann,
          title: 'Deal',
          title_lc: 'deal',
          status: 'qualified',
          value_cents: null,
          currency: null,
          payment_customer_id: null,
          next_followup_at: null,
          lost_reason_code: null,
          lost_reason_label: null,
          closed_at: null,
          closed_by_user_id: null,
          last_activity_at: T0,
          created_at: T0,
          updated_at: T0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const ticket = async (orgId: number, contactId: number | null) =>
    (
      await h.db
        .insertInto('tickets')
        .values({
          account_id: acc,
          org_id: orgId,
          contact_id: contactId,
          owner_user_id: bob,
          title: 'Help',
          title_lc: 'help',
          details: 'd',
          status: 'open',
          channel: 'api',
          external_reference: null,
          metadata: null,
          source_app: null,
          created_at: T0,
          updated_at: T0,
          closed_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const activity = async (
    dealId: number,
    orgId: number,
    at: number,
    userId: number | null,
    kind: 'note' | 'email' | 'call' | 'meeting' = 'note',
    message = 'msg',
  ) =>
    (
      await h.db
        .insertInto('deal_activities')
        .values({
          account_id: acc,
          deal_id: dealId,
          org_id: orgId,
          event_type: kind,
          message,
          outcome: null,
          source_app: 'crm',
          external_reference: null,
          metadata: null,
          user_id: userId,
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const log = async (ticketId: number, orgId: number, at: number, authorId: number | null, note = 'note') =>
    (
      await h.db
        .insertInto('support_logs')
        .values({ account_id: acc, ticket_id: ticketId, org_id: orgId, note, channel: 'email', author_user_id: authorId, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  return { a, acc, acme, globex, ann, bob, contact, deal, ticket, activity, log };
}

async function feed(h: Harness, key: string, query: Record<string, string | number> = {}) {
  const res = await call(h, 'GET', '/api/v1/activity', { key, query });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
const ids = (body: any) => body.data.map((i: any) => i.id);

for (const engine of engines()) {
  describe(`GET /activity [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    test('merges timeline entries and support logs newest first with the full item shape', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, w.contact);
      const t = await w.ticket(w.globex, null);
      const act = await w.activity(d, w.acme, T0 + 2 * HOUR, w.ann, 'call', 'Called Carla');
      const log = await w.log(t, w.globex, T0 + HOUR, null, 'Customer replied');
      const body = await feed(h, w.a.key);
      assert.deepEqual(body.data, [
        {
          id: `timeline:${act}`,
          type: 'call',
          source: 'timeline',
          content: 'Called Carla',
          employee: { id: w.ann, display_name: 'Ann', email: `ann-${w.acc}@example.com` },
          customer: { org_id: w.acme, name: 'Acme', contact: { id: w.contact, name: 'Carla', email: 'carla@acme.io' } },
          deal_id: d,
          ticket_id: null,
          outcome: null,
          channel: null,
          occurred_at: '2026-11-10T14:00:00.000Z',
          created_at: '2026-11-10T14:00:00.000Z',
        },
        {
          id: `support_log:${log}`,
          type: 'support_log',
          source: 'support_log',
          content: 'Customer replied',
          employee: null,
          customer: { org_id: w.globex, name: 'Globex', contact: null },
          deal_id: null,
          ticket_id: t,
          outcome: null,
          channel: 'email',
          occurred_at: '2026-11-10T13:00:00.000Z',
          created_at: '2026-11-10T13:00:00.000Z',
        },
      ]);
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 2, pages: 1, has_next: false, has_prev: false });
    });

    test('every activity kind keeps its type; outcome is passed through', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, null);
      for (const [i, kind] of (['note', 'email', 'call', 'meeting'] as const).entries()) await w.activity(d, w.acme, T0 + i, w.ann, kind);
      await h.db.updateTable('deal_activities').set({ outcome: 'success' }).where('account_id', '=', w.acc).where('event_type', '=', 'email').execute();
      const body = await feed(h, w.a.key);
      assert.deepEqual(
        body.data.map((i: any) => [i.type, i.outcome]),
        [
          ['meeting', null],
          ['call', null],
          ['email', 'success'],
          ['note', null],
        ],
      );
      assert.equal(body.data[0].customer.contact, null);
    });

    test('source selects timeline, support logs or both, with the sales and support aliases', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, null);
      const t = await w.ticket(w.acme, w.contact);
      const a1 = await w.activity(d, w.acme, T0 + 3, w.ann);
      const l1 = await w.log(t, w.acme, T0 + 2, w.bob);
      const a2 = await w.activity(d, w.acme, T0 + 1, null);
      const l2 = await w.log(t, w.acme, T0, null);
      const all = [`timeline:${a1}`, `support_log:${l1}`, `timeline:${a2}`, `support_log:${l2}`];
      assert.deepEqual(ids(await feed(h, w.a.key)), all);
      assert.deepEqual(ids(await feed(h, w.a.key, { source: 'all' })), all);
      for (const source of ['timeline', 'sales']) assert.deepEqual(ids(await feed(h, w.a.key, { source })), [`timeline:${a1}`, `timeline:${a2}`]);
      for (const source of ['support_log', 'support']) {
        const body = await feed(h, w.a.key, { source });
        assert.deepEqual(ids(body), [`support_log:${l1}`, `support_log:${l2}`]);
        assert.deepEqual(body.data[0].customer.contact, { id: w.contact, name: 'Carla', email: 'carla@acme.io' });
        assert.equal(body.data[0].employee.display_name, 'Bob');
        assert.equal(body.pagination.total, 2);
      }
    });

    test('org, employee (and its user_id alias), deal and ticket filters', async () => {
      const w = await world(h);
      const dAcme = await w.deal(w.acme, null);
      const dGlobex = await w.deal(w.globex, null);
      const tAcme = await w.ticket(w.acme, null);
      const tGlobex = await w.ticket(w.globex, null);
      const a1 = await w.activity(dAcme, w.acme, T0 + 6, w.ann);
      const a2 = await w.activity(dGlobex, w.globex, T0 + 5, w.bob);
      const l1 = await w.log(tAcme, w.acme, T0 + 4, w.bob);
      const l2 = await w.log(tGlobex, w.globex, T0 + 3, w.ann);
      const a3 = await w.activity(dAcme, w.acme, T0 + 2, null);
      assert.deepEqual(ids(await feed(h, w.a.key, { org_id: w.acme })), [`timeline:${a1}`, `support_log:${l1}`, `timeline:${a3}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { org_id: w.globex })), [`timeline:${a2}`, `support_log:${l2}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { employee_user_id: w.ann })), [`timeline:${a1}`, `support_log:${l2}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { user_id: w.bob })), [`timeline:${a2}`, `support_log:${l1}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { user_id: w.bob, employee_user_id: w.bob })), [`timeline:${a2}`, `support_log:${l1}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { deal_id: dAcme })), [`timeline:${a1}`, `timeline:${a3}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { deal_id: dAcme, source: 'support' })), []);
      assert.deepEqual(ids(await feed(h, w.a.key, { ticket_id: tGlobex })), [`support_log:${l2}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { ticket_id: tGlobex, source: 'sales' })), []);
      assert.deepEqual(ids(await feed(h, w.a.key, { org_id: w.acme, user_id: w.bob })), [`support_log:${l1}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { org_id: w.globex, deal_id: dAcme })), []);
    });

    test('from and to are inclusive; a bare date in to covers the whole day', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, null);
      const t = await w.ticket(w.acme, null);
      const dayStart = Date.UTC(2026, 10, 10);
      const before = await w.activity(d, w.acme, dayStart - 1, w.ann);
      const first = await w.log(t, w.acme, dayStart, w.ann);
      const last = await w.activity(d, w.acme, dayStart + 86_400_000 - 1, w.ann);
      const next = await w.log(t, w.acme, dayStart + 86_400_000, w.ann);
      assert.deepEqual(ids(await feed(h, w.a.key, { from: '2026-11-10', to: '2026-11-10' })), [`timeline:${last}`, `support_log:${first}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { from: '2026-11-11' })), [`support_log:${next}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { to: '2026-11-09' })), [`timeline:${before}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { from: '2026-11-10T00:00:00Z', to: '2026-11-10T00:00:00.000Z' })), [`support_log:${first}`]);
      assert.deepEqual(ids(await feed(h, w.a.key, { from: '2026-11-10T01:00:00+02:00', to: '2026-11-09T23:59:59.999' })), [`timeline:${before}`]);
    });

    test('ties on created_at: larger id first, then timeline before support_log; pagination over the merged set', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, null);
      const t = await w.ticket(w.acme, null);
      const made: { key: string; id: number }[] = [];
      for (let i = 0; i < 3; i++) {
        made.push({ key: 'timeline', id: await w.activity(d, w.acme, T0, w.ann) });
        made.push({ key: 'support_log', id: await w.log(t, w.acme, T0, w.ann) });
      }
      const expected = made.sort((x, y) => y.id - x.id || (x.key === y.key ? 0 : x.key === 'timeline' ? -1 : 1)).map((m) => `${m.key}:${m.id}`);
      assert.deepEqual(ids(await feed(h, w.a.key)), expected);
      const p2 = await feed(h, w.a.key, { page: 2, per_page: 4 });
      assert.deepEqual(ids(p2), expected.slice(4));
      assert.deepEqual(p2.pagination, { page: 2, per_page: 4, total: 6, pages: 2, has_next: false, has_prev: true });
      const past = await feed(h, w.a.key, { page: 9, per_page: 4 });
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { page: 9, per_page: 4, total: 6, pages: 2, has_next: false, has_prev: true });
    });

    test('each source is capped at its newest 500 rows before pagination', async () => {
      const w = await world(h);
      const d = await w.deal(w.acme, null);
      const t = await w.ticket(w.acme, null);
      const N = 520;
      const acts = Array.from({ length: N }, (_, i) => ({
        account_id: w.acc,
        deal_id: d,
        org_id: w.acme,
        event_type: 'note' as const,
        message: `a${i}`,
        outcome: null,
        source_app: null,
        external_reference: null,
        metadata: null,
        user_id: w.ann,
        created_at: T0 + i * 2,
      }));
      const logs = Array.from({ length: N }, (_, i) => ({
        account_id: w.acc,
        ticket_id: t,
        org_id: w.acme,
        note: `l${i}`,
        channel: 'api',
        author_user_id: w.bob,
        created_at: T0 + i * 2 + 1,
      }));
      await h.db.insertInto('deal_activities').values(acts).execute();
      await h.db.insertInto('support_logs').values(logs).execute();

      const all = await feed(h, w.a.key, { per_page: 100 });
      assert.deepEqual(all.pagination, { page: 1, per_page: 100, total: 1000, pages: 10, has_next: true, has_prev: false });
      assert.deepEqual(
        all.data.slice(0, 2).map((i: any) => i.content),
        ['l519', 'a519'],
      );
      const last = await feed(h, w.a.key, { per_page: 100, page: 10 });
      assert.deepEqual(
        last.data.slice(-2).map((i: any) => i.content),
        ['l20', 'a20'],
        'the 20 oldest of each source are cut',
      );
      assert.equal((await feed(h, w.a.key, { per_page: 100, page: 11 })).data.length, 0);

      const sales = await feed(h, w.a.key, { source: 'sales', per_page: 100, page: 5 });
      assert.equal(sales.pagination.total, 500);
      assert.equal(sales.data.at(-1).content, 'a20');
      assert.equal((await feed(h, w.a.key, { source: 'support' })).pagination.total, 500);
      // The cap applies after filtering: a window of 30 rows per source is complete.
      const windowed = await feed(h, w.a.key, { from: new Date(T0).toISOString(), to: new Date(T0 + 59).toISOString(), per_page: 100 });
      assert.equal(windowed.pagination.total, 60);
      assert.equal(windowed.data.at(-1).content, 'a0');
      assert.equal((await feed(h, w.a.key, { deal_id: d })).pagination.total, 500);
    });

    test('bad query values are 422 naming the field', async () => {
      const w = await world(h);
      for (const [query, field] of [
        [{ source: 'tickets' }, 'source'],
        [{ source: 'ALL' }, 'source'],
        [{ org_id: 'abc' }, 'org_id'],
        [{ org_id: 0 }, 'org_id'],
        [{ user_id: -1 }, 'user_id'],
        [{ employee_user_id: 1.5 }, 'employee_user_id'],
        [{ deal_id: "1' or 1=1" }, 'deal_id'],
        [{ ticket_id: '%' }, 'ticket_id'],
        [{ from: '2026-02-30' }, 'from'],
        [{ to: 'yesterday' }, 'to'],
        [{ to: '2026-13-01' }, 'to'],
        [{ from: '2026-11-10T25:00:00Z' }, 'from'],
        [{ from: '2026-11-11', to: '2026-11-10' }, 'from'],
        [{ user_id: w.ann, employee_user_id: w.bob }, 'user_id'],
        [{ page: 0 }, 'page'],
        [{ per_page: 101 }, 'per_page'],
      ] as const) {
        const body = assertError(await call(h, 'GET', '/api/v1/activity', { key: w.a.key, query: query as any }), 422, 'validation_error');
        assert.ok(body.fields[field], `${JSON.stringify(query)} names ${field}: ${JSON.stringify(body.fields)}`);
      }
      assert.equal((await call(h, 'GET', '/api/v1/activity', { key: w.a.key, query: { unknown: 'x' } })).statusCode, 200);
    });

    test("another account's records are invisible, and its ids in filters are 404", async () => {
      const mine = await world(h);
      const other = await world(h);
      const od = await other.deal(other.acme, null);
      const ot = await other.ticket(other.acme, null);
      await other.activity(od, other.acme, T0, other.ann);
      await other.log(ot, other.acme, T0, other.ann);
      assert.deepEqual((await feed(h, mine.a.key)).data, []);
      for (const [query, code] of [
        [{ org_id: other.acme }, 'org_not_found'],
        [{ employee_user_id: other.ann }, 'user_not_found'],
        [{ user_id: other.bob }, 'user_not_found'],
        [{ deal_id: od }, 'deal_not_found'],
        [{ ticket_id: ot }, 'ticket_not_found'],
        [{ ticket_id: 987654321 }, 'ticket_not_found'],
        [{ deal_id: 987654321, source: 'support' }, 'deal_not_found'],
      ] as const) {
        assertError(await call(h, 'GET', '/api/v1/activity', { key: mine.a.key, query: query as any }), 404, code);
      }
    });

    test('common authentication and scope checks; a read key is enough', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, { method: 'GET', url: '/api/v1/activity', scope: 'activity:read' });
      for (const scopes of [['read'], ['activity:read']] as const) {
        assert.equal((await call(h, 'GET', '/api/v1/activity', { key: await a.keyWith([...scopes]) })).statusCode, 200);
      }
    });
  });
}
