import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { insertOrg } from '../helpers/support-fixtures.ts';

type Status = 'open' | 'pending' | 'closed';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

async function insertTicket(
  h: Harness,
  a: TestAccount,
  orgId: number,
  f: { title: string; status?: Status; created?: number; updated?: number; owner?: number | null },
): Promise<number> {
  const created = f.created ?? T0;
  const r = await h.db
    .insertInto('tickets')
    .values({
      account_id: a.accountId,
      org_id: orgId,
      contact_id: null,
      owner_user_id: f.owner ?? null,
      title: f.title,
      title_lc: f.title.toLowerCase(),
      details: 'details',
      status: f.status ?? 'open',
      channel: 'api',
      external_reference: null,
      metadata: null,
      source_app: 'hd',
      created_at: created,
      updated_at: f.updated ?? created,
      closed_at: f.status === 'closed' ? created : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

async function insertLog(h: Harness, a: TestAccount, ticketId: number, orgId: number, note: string, at: number): Promise<number> {
  const r = await h.db
    .insertInto('support_logs')
    .values({ account_id: a.accountId, ticket_id: ticketId, org_id: orgId, note, channel: 'email', author_user_id: a.ownerId, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

for (const engine of engines()) {
  describe(`support reads [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const list = async (a: TestAccount, query: Record<string, string | number> = {}) => {
      const res = await call(h, 'GET', '/api/v1/support/tickets', { key: a.key, query });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const titles = async (a: TestAccount, query: Record<string, string | number> = {}) => (await list(a, query)).data.map((t: any) => t.title);

    test('lists newest first, ties by id, with the full ticket shape', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const first = await insertTicket(h, a, org, { title: 'First', created: T0 });
      await insertTicket(h, a, org, { title: 'Tie A', created: T0 + DAY });
      await insertTicket(h, a, org, { title: 'Tie B', created: T0 + DAY });
      const body = await list(a);
      assert.deepEqual(
        body.data.map((t: any) => t.title),
        ['Tie B', 'Tie A', 'First'],
      );
      assert.deepEqual(body.data[2], {
        id: first,
        org_id: org,
        contact_id: null,
        owner_user_id: null,
        title: 'First',
        details: 'details',
        status: 'open',
        channel: 'api',
        external_reference: null,
        metadata: null,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        closed_at: null,
      });
      assert.deepEqual(body.pagination, { page: 1, per_page: 25, total: 3, pages: 1, has_next: false, has_prev: false });
    });

    test('status and open_only filters', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      await insertTicket(h, a, org, { title: 'O', status: 'open', created: T0 + 3 });
      await insertTicket(h, a, org, { title: 'P', status: 'pending', created: T0 + 2 });
      await insertTicket(h, a, org, { title: 'C', status: 'closed', created: T0 + 1 });
      assert.deepEqual(await titles(a, { status: 'pending' }), ['P']);
      assert.deepEqual(await titles(a, { status: 'closed' }), ['C']);
      assert.deepEqual(await titles(a, { open_only: 1 }), ['O', 'P']);
      assert.deepEqual(await titles(a, { open_only: 'true' }), ['O', 'P']);
      assert.deepEqual(await titles(a, { open_only: 0 }), ['O', 'P', 'C']);
      assert.deepEqual(await titles(a, { open_only: 1, status: 'pending' }), ['P']);
      const none = await list(a, { open_only: 1, status: 'closed' });
      assert.deepEqual([none.data, none.pagination.total], [[], 0]);
    });

    test('org_id and owner_user_id filters; another account’s ids are 404', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const one = await insertOrg(h, a.accountId, 'One');
      const two = await insertOrg(h, a.accountId, 'Two');
      await insertTicket(h, a, one, { title: 'one-owned', owner: a.ownerId, created: T0 + 2 });
      await insertTicket(h, a, two, { title: 'two', created: T0 + 1 });
      assert.deepEqual(await titles(a, { org_id: one }), ['one-owned']);
      assert.deepEqual(await titles(a, { org_id: two }), ['two']);
      assert.deepEqual(await titles(a, { owner_user_id: a.ownerId }), ['one-owned']);
      assert.deepEqual(await titles(a, { owner_user_id: a.ownerId, org_id: two }), []);
      const theirOrg = await insertOrg(h, b.accountId, 'Theirs');
      const get = (query: Record<string, number>) => call(h, 'GET', '/api/v1/support/tickets', { key: a.key, query });
      assertError(await get({ org_id: theirOrg }), 404, 'org_not_found');
      assertError(await get({ org_id: 999999 }), 404, 'org_not_found');
      assertError(await get({ owner_user_id: b.ownerId }), 404, 'user_not_found');
      assertError(await get({ owner_user_id: 999999 }), 404, 'user_not_found');
    });

    test('q matches the title case-insensitively and literally', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const names = ['Ärger mit Drucker', '100% down', 'snake_case bug', "O'Brien called", 'back\\slash', 'plain'];
      for (const [i, title] of names.entries()) await insertTicket(h, a, org, { title, created: T0 + i });
      assert.deepEqual(await titles(a, { q: 'ärger' }), ['Ärger mit Drucker']);
      assert.deepEqual(await titles(a, { q: 'DRUCKER' }), ['Ärger mit Drucker']);
      assert.deepEqual(await titles(a, { q: '%' }), ['100% down']);
      assert.deepEqual(await titles(a, { q: '_' }), ['snake_case bug']);
      assert.deepEqual(await titles(a, { q: "'" }), ["O'Brien called"]);
      assert.deepEqual(await titles(a, { q: '\\' }), ['back\\slash']);
      assert.deepEqual(await titles(a, { q: 'zzz' }), []);
    });

    test('created_from and created_to are inclusive; a bare date covers its day', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      await insertTicket(h, a, org, { title: 'Oct31-late', created: Date.UTC(2026, 9, 31, 23, 59, 59, 999) });
      await insertTicket(h, a, org, { title: 'Nov1-start', created: Date.UTC(2026, 10, 1) });
      await insertTicket(h, a, org, { title: 'Nov1-late', created: Date.UTC(2026, 10, 1, 23, 59, 59, 999) });
      await insertTicket(h, a, org, { title: 'Nov2', created: Date.UTC(2026, 10, 2) });
      assert.deepEqual(await titles(a, { created_from: '2026-11-01', created_to: '2026-11-01' }), ['Nov1-late', 'Nov1-start']);
      assert.deepEqual(await titles(a, { created_from: '2026-11-01T23:59:59.999Z' }), ['Nov2', 'Nov1-late']);
      assert.deepEqual(await titles(a, { created_to: '2026-11-01T00:00:00' }), ['Nov1-start', 'Oct31-late']);
    });

    test('every sort in both directions', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      // Inserted in id order; created, updated, title and status each order them differently.
      await insertTicket(h, a, org, { title: 'bravo', status: 'pending', created: T0 + 2, updated: T0 + 10 });
      await insertTicket(h, a, org, { title: 'Alpha', status: 'open', created: T0 + 3, updated: T0 + 5 });
      await insertTicket(h, a, org, { title: 'charlie', status: 'closed', created: T0 + 1, updated: T0 + 20 });
      const expected: Record<string, string[]> = {
        created_at: ['charlie', 'bravo', 'Alpha'],
        updated_at: ['Alpha', 'bravo', 'charlie'],
        id: ['bravo', 'Alpha', 'charlie'],
        title: ['Alpha', 'bravo', 'charlie'],
        status: ['charlie', 'Alpha', 'bravo'],
      };
      for (const [sort, asc] of Object.entries(expected)) {
        assert.deepEqual(await titles(a, { sort, direction: 'asc' }), asc, `${sort} asc`);
        assert.deepEqual(await titles(a, { sort, direction: 'desc' }), [...asc].reverse(), `${sort} desc`);
      }
      assert.deepEqual(await titles(a, { sort: 'title' }), ['charlie', 'bravo', 'Alpha'], 'direction defaults to desc');
      // Ties within a status are broken by id in the same direction.
      await insertTicket(h, a, org, { title: 'delta', status: 'open', created: T0 });
      assert.deepEqual(await titles(a, { sort: 'status', direction: 'asc' }), ['charlie', 'Alpha', 'delta', 'bravo']);
      assert.deepEqual(await titles(a, { sort: 'status', direction: 'desc' }), ['bravo', 'delta', 'Alpha', 'charlie']);
    });

    test('pagination and a page past the end', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      for (let i = 0; i < 5; i++) await insertTicket(h, a, org, { title: `T${i}`, created: T0 + i });
      const p2 = await list(a, { page: 2, per_page: 2 });
      assert.deepEqual(
        p2.data.map((t: any) => t.title),
        ['T2', 'T1'],
      );
      assert.deepEqual(p2.pagination, { page: 2, per_page: 2, total: 5, pages: 3, has_next: true, has_prev: true });
      const past = await list(a, { page: 9, per_page: 2 });
      assert.deepEqual(past, { data: [], pagination: { page: 9, per_page: 2, total: 5, pages: 3, has_next: false, has_prev: true } });
    });

    test('one status sorted by title: its pages, its total past the end, and an empty status', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const pending: number[] = [];
      for (const title of ['delta', 'Bravo', 'charlie', 'Alpha']) pending.push(await insertTicket(h, a, org, { title, status: 'pending' }));
      await insertTicket(h, a, org, { title: 'Aardvark', status: 'open' });
      const p1 = await list(a, { status: 'pending', sort: 'title', direction: 'asc', per_page: 3 });
      assert.deepEqual(
        p1.data.map((t: any) => t.id),
        [pending[3], pending[1], pending[2]],
      );
      assert.deepEqual(p1.pagination, { page: 1, per_page: 3, total: 4, pages: 2, has_next: true, has_prev: false });
      const p2 = await list(a, { status: 'pending', sort: 'title', direction: 'desc', per_page: 3, page: 2 });
      assert.deepEqual(
        p2.data.map((t: any) => t.id),
        [pending[3]],
      );
      const past = await list(a, { status: 'pending', page: 3, per_page: 3 });
      assert.deepEqual(past, { data: [], pagination: { page: 3, per_page: 3, total: 4, pages: 2, has_next: false, has_prev: true } });
      const closed = await list(a, { status: 'closed' });
      assert.deepEqual(closed, { data: [], pagination: { page: 1, per_page: 25, total: 0, pages: 0, has_next: false, has_prev: false } });
    });

    test('bad query values are 422 naming the field', async () => {
      const a = await createTestAccount(h);
      const cases: [Record<string, string | number>, string][] = [
        [{ status: 'bogus' }, 'status'],
        [{ status: 'OPEN' }, 'status'],
        [{ open_only: 'yes' }, 'open_only'],
        [{ sort: 'details' }, 'sort'],
        [{ direction: 'up' }, 'direction'],
        [{ org_id: 'abc' }, 'org_id'],
        [{ owner_user_id: 0 }, 'owner_user_id'],
        [{ created_from: '2026-02-30' }, 'created_from'],
        [{ created_to: 'yesterday' }, 'created_to'],
        [{ created_to: '2026-13-01' }, 'created_to'],
        [{ created_from: '2026-11-02', created_to: '2026-11-01' }, 'created_from'],
        [{ q: 'x'.repeat(201) }, 'q'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
      ];
      for (const [query, field] of cases) {
        const err = assertError(await call(h, 'GET', '/api/v1/support/tickets', { key: a.key, query }), 422, 'validation_error');
        assert.ok(err.fields[field], `${JSON.stringify(query)} names ${field}: ${JSON.stringify(err.fields)}`);
      }
    });

    test('GET /support/tickets/{id}: one ticket; absent and another account’s are 404', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const id = await insertTicket(h, a, org, { title: 'Mine', status: 'closed', owner: a.ownerId });
      const res = await call(h, 'GET', `/api/v1/support/tickets/${id}`, { key: a.key });
      assert.deepEqual(res.json(), {
        id,
        org_id: org,
        contact_id: null,
        owner_user_id: a.ownerId,
        title: 'Mine',
        details: 'details',
        status: 'closed',
        channel: 'api',
        external_reference: null,
        metadata: null,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        closed_at: '2026-11-01T00:00:00.000Z',
      });
      const theirs = await insertTicket(h, b, await insertOrg(h, b.accountId, 'B'), { title: 'Theirs' });
      assertError(await call(h, 'GET', `/api/v1/support/tickets/${theirs}`, { key: a.key }), 404, 'ticket_not_found');
      assertError(await call(h, 'GET', '/api/v1/support/tickets/999999', { key: a.key }), 404, 'ticket_not_found');
      assert.ok(assertError(await call(h, 'GET', '/api/v1/support/tickets/abc', { key: a.key }), 422, 'validation_error').fields.id);
    });

    test('logs of a ticket: newest first, sorts, pagination, one log, tenancy', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const t = await insertTicket(h, a, org, { title: 'With logs' });
      const other = await insertTicket(h, a, org, { title: 'Other' });
      const l1 = await insertLog(h, a, t, org, 'first', T0 + 1);
      const l2 = await insertLog(h, a, t, org, 'second', T0 + 2);
      const l3 = await insertLog(h, a, t, org, 'tie', T0 + 2);
      await insertLog(h, a, other, org, 'elsewhere', T0 + 3);
      const logs = async (query: Record<string, string | number> = {}) =>
        (await call(h, 'GET', `/api/v1/support/tickets/${t}/logs`, { key: a.key, query })).json();
      const all = await logs();
      assert.deepEqual(
        all.data.map((l: any) => l.id),
        [l3, l2, l1],
      );
      assert.deepEqual(all.data[2], {
        id: l1,
        ticket_id: t,
        note: 'first',
        channel: 'email',
        author_user_id: a.ownerId,
        created_at: '2026-11-01T00:00:00.001Z',
      });
      assert.deepEqual(
        (await logs({ direction: 'asc' })).data.map((l: any) => l.id),
        [l1, l2, l3],
      );
      assert.deepEqual(
        (await logs({ sort: 'id', direction: 'desc' })).data.map((l: any) => l.id),
        [l3, l2, l1],
      );
      const p2 = await logs({ per_page: 2, page: 2 });
      assert.deepEqual([p2.data.map((l: any) => l.id), p2.pagination], [[l1], { page: 2, per_page: 2, total: 3, pages: 2, has_next: false, has_prev: true }]);
      assert.ok(
        assertError(await call(h, 'GET', `/api/v1/support/tickets/${t}/logs`, { key: a.key, query: { sort: 'note' } }), 422, 'validation_error').fields.sort,
      );

      const one = await call(h, 'GET', `/api/v1/support/tickets/${t}/logs/${l2}`, { key: a.key });
      assert.deepEqual(one.json(), {
        id: l2,
        ticket_id: t,
        note: 'second',
        channel: 'email',
        author_user_id: a.ownerId,
        created_at: '2026-11-01T00:00:00.002Z',
      });
      assertError(await call(h, 'GET', `/api/v1/support/tickets/${other}/logs/${l2}`, { key: a.key }), 404, 'support_log_not_found');

      const theirs = await insertTicket(h, b, await insertOrg(h, b.accountId, 'B'), { title: 'Theirs' });
      assertError(await call(h, 'GET', `/api/v1/support/tickets/${theirs}/logs`, { key: a.key }), 404, 'ticket_not_found');
      assertError(await call(h, 'GET', `/api/v1/support/tickets/999999/logs`, { key: a.key }), 404, 'ticket_not_found');
      assertError(await call(h, 'GET', `/api/v1/support/tickets/${theirs}/logs/${l2}`, { key: a.key }), 404, 'ticket_not_found');
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const t = await insertTicket(h, a, org, { title: 'x' });
      const l = await insertLog(h, a, t, org, 'n', T0);
      for (const url of [
        '/api/v1/support/tickets',
        `/api/v1/support/tickets/${t}`,
        `/api/v1/support/tickets/${t}/logs`,
        `/api/v1/support/tickets/${t}/logs/${l}`,
      ]) {
        await assertCommonAuth(h, a, { method: 'GET', url, scope: 'support:read' });
        assert.equal((await call(h, 'GET', url, { key: await a.keyWith(['read']) })).statusCode, 200, url);
      }
    });
  });
}
