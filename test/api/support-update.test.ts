import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { badBodies, insertOrg, linkPair } from '../helpers/support-fixtures.ts';

const T0 = '2026-11-20T10:00:00.000Z';

for (const engine of engines()) {
  describe(`support ticket changes and logs [${engine}]`, () => {
    let h: Harness;
    let clock: FixedClock;
    before(async () => {
      clock = new FixedClock(T0);
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    /** A ticket made through the API, with the outbox of its creation cleared from the result of `newEvents`. */
    async function ticketOf(a: TestAccount): Promise<{ id: number; org: number; seen: number }> {
      clock.set(T0);
      const org = await insertOrg(h, a.accountId, `Org ${a.accountId}-${Math.random()}`);
      await linkPair(h, a.accountId, org, 'hd', `ext-${org}`);
      const res = await call(h, 'POST', '/api/v1/support/tickets', {
        key: a.key,
        body: { source_app: 'hd', external_org_id: `ext-${org}`, title: 'Broken', details: 'D', contact_email: 'c@x.io' },
      });
      assert.equal(res.statusCode, 201);
      return { id: res.json().id, org, seen: (await outboxOf(h.db, a.accountId)).length };
    }
    const newEvents = async (a: TestAccount, seen: number) =>
      (await outboxOf(h.db, a.accountId)).slice(seen).map((e) => {
        const { id: _id, ...payload } = e.payload;
        return { event_type: e.event_type, org_id: e.org_id, payload };
      });
    const patch = (a: TestAccount, id: number, body: unknown) => call(h, 'PATCH', `/api/v1/support/tickets/${id}`, { key: a.key, body });

    test('closing sets closed_at and emits support.ticket.closed; reopening clears it and emits opened', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      clock.set('2026-11-21T08:00:00.000Z');
      const closed = await patch(a, t.id, { status: 'closed' });
      assert.equal(closed.statusCode, 200);
      assert.deepEqual(
        [closed.json().status, closed.json().closed_at, closed.json().updated_at, closed.json().created_at],
        ['closed', '2026-11-21T08:00:00.000Z', '2026-11-21T08:00:00.000Z', T0],
      );
      clock.set('2026-11-22T08:00:00.000Z');
      const reopened = await patch(a, t.id, { status: 'pending' });
      assert.deepEqual([reopened.json().status, reopened.json().closed_at], ['pending', null]);
      assert.deepEqual(await newEvents(a, t.seen), [
        {
          event_type: 'support.ticket.closed',
          org_id: t.org,
          payload: {
            event_type: 'support.ticket.closed',
            org_id: t.org,
            timestamp: '2026-11-21T08:00:00.000Z',
            slog_id: t.id,
            slog: { id: t.id, title: 'Broken', status: 'closed' },
          },
        },
        {
          event_type: 'support.ticket.opened',
          org_id: t.org,
          payload: {
            event_type: 'support.ticket.opened',
            org_id: t.org,
            timestamp: '2026-11-22T08:00:00.000Z',
            slog_id: t.id,
            slog: { id: t.id, title: 'Broken', status: 'pending' },
          },
        },
      ]);
      assert.deepEqual((await call(h, 'GET', `/api/v1/support/tickets/${t.id}`, { key: a.key })).json(), reopened.json());
    });

    test('eight concurrent closes make one move and emit one support.ticket.closed', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      const results = await Promise.all(Array.from({ length: 8 }, () => patch(a, t.id, { status: 'closed' })));
      assert.ok(
        results.every((r) => r.statusCode === 200),
        results.map((r) => r.statusCode).join(','),
      );
      const events = await newEvents(a, t.seen);
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['support.ticket.closed'],
      );
    });

    test('open ↔ pending, owner and title changes emit nothing; unchanged values change nothing', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      clock.set('2026-11-21T00:00:00.000Z');
      const res = await patch(a, t.id, { status: 'pending', owner_user_id: a.ownerId, title: 'Renamed' });
      assert.deepEqual(
        [res.json().status, res.json().owner_user_id, res.json().title, res.json().updated_at, res.json().closed_at],
        ['pending', a.ownerId, 'Renamed', '2026-11-21T00:00:00.000Z', null],
      );
      assert.equal((await call(h, 'GET', '/api/v1/support/tickets', { key: a.key, query: { q: 'renamed' } })).json().data.length, 1, 'title_lc follows');
      assert.equal((await patch(a, t.id, { status: 'open' })).json().status, 'open');
      clock.set('2026-11-25T00:00:00.000Z');
      const same = await patch(a, t.id, { status: 'open', title: 'Renamed', owner_user_id: a.ownerId });
      assert.equal(same.json().updated_at, '2026-11-21T00:00:00.000Z', 'no change, no new updated_at');
      assert.equal((await patch(a, t.id, {})).statusCode, 200);
      const unassigned = await patch(a, t.id, { owner_user_id: null });
      assert.equal(unassigned.json().owner_user_id, null);
      // Closing twice emits once.
      await patch(a, t.id, { status: 'closed' });
      await patch(a, t.id, { status: 'closed' });
      assert.deepEqual(
        (await newEvents(a, t.seen)).map((e) => e.event_type),
        ['support.ticket.closed'],
      );
    });

    test('PATCH tenancy: ticket and owner of another account are 404, nothing changes', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const mine = await ticketOf(a);
      const theirs = await ticketOf(b);
      const before = await tableCounts(h.db);
      assertError(await patch(a, theirs.id, { status: 'closed' }), 404, 'ticket_not_found');
      assertError(await patch(a, 999999, { status: 'closed' }), 404, 'ticket_not_found');
      assertError(await patch(a, mine.id, { owner_user_id: b.ownerId, status: 'closed' }), 404, 'user_not_found');
      assertError(await patch(a, mine.id, { owner_user_id: 999999 }), 404, 'user_not_found');
      assert.deepEqual(await tableCounts(h.db), before);
      assert.equal((await call(h, 'GET', `/api/v1/support/tickets/${mine.id}`, { key: a.key })).json().status, 'open');
      assert.equal((await call(h, 'GET', `/api/v1/support/tickets/${theirs.id}`, { key: b.key })).json().status, 'open');
    });

    test('PATCH owner: a user not support-enabled, or deactivated, is 422 naming owner_user_id and nothing is written; an eligible one is assigned', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      const user = async (email: string, supportEnabled: boolean) => {
        const res = await call(h, 'POST', '/api/v1/users', {
          key: a.key,
          body: { email, display_name: email, role: 'member', support_enabled: supportEnabled },
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().id as number;
      };
      const sales = await user(`sales-${a.accountId}@example.com`, false);
      const helper = await user(`help-${a.accountId}@example.com`, true);
      const gone = await user(`gone-${a.accountId}@example.com`, true);
      await h.db.updateTable('users').set({ is_active: false }).where('id', '=', gone).execute();
      const before = await tableCounts(h.db);
      const ticketRow = () => h.db.selectFrom('tickets').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
      const untouched = await ticketRow();
      clock.set('2026-11-21T00:00:00.000Z');
      for (const [owner, reason] of [
        [sales, 'not_support_enabled'],
        [gone, 'user_inactive'],
      ] as const) {
        for (const body of [{ owner_user_id: owner }, { owner_user_id: owner, status: 'closed', title: 'Not saved' }]) {
          const err = assertError(await patch(a, t.id, body), 422, 'validation_error');
          assert.deepEqual(err.fields, { owner_user_id: reason }, JSON.stringify(body));
          assert.match(err.message, new RegExp(`User ${owner} `));
        }
      }
      assert.deepEqual(await ticketRow(), untouched, 'the ticket is as it was');
      assert.deepEqual(await tableCounts(h.db), before, 'no event, no row');
      assert.deepEqual(await newEvents(a, t.seen), []);

      const assigned = await patch(a, t.id, { owner_user_id: helper });
      assert.equal(assigned.statusCode, 200);
      assert.equal(assigned.json().owner_user_id, helper);
      // An owner who later loses support is kept when the ticket is changed with the same owner sent again.
      await h.db.updateTable('users').set({ support_enabled: false }).where('id', '=', helper).execute();
      const closed = await patch(a, t.id, { owner_user_id: helper, status: 'closed' });
      assert.deepEqual([closed.statusCode, closed.json().owner_user_id, closed.json().status], [200, helper, 'closed']);
      assert.equal((await patch(a, t.id, { owner_user_id: null })).json().owner_user_id, null);
      assert.deepEqual(assertError(await patch(a, t.id, { owner_user_id: helper }), 422, 'validation_error').fields, { owner_user_id: 'not_support_enabled' });
    });

    test('PATCH bad bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      const before = await tableCounts(h.db);
      for (const [body, field, reason] of [
        [{ status: 'resolved' }, 'status', 'invalid_enum'],
        [{ owner_user_id: '1' }, 'owner_user_id', 'invalid_type'],
        [{ owner_user_id: 0 }, 'owner_user_id', 'too_small'],
        [{ title: '' }, 'title', 'too_short'],
        [{ details: 'x' }, 'details', 'unknown_field'],
      ] as const) {
        assert.equal(assertError(await patch(a, t.id, body), 422, 'validation_error').fields[field], reason, JSON.stringify(body));
      }
      await fc.assert(
        fc.asyncProperty(
          badBodies(
            { status: 'closed', owner_user_id: a.ownerId, title: 'New' },
            {
              status: { kind: 'enum' },
              owner_user_id: { kind: 'id', nullable: true },
              title: { kind: 'string' },
              idempotency_key: { kind: 'string' },
            },
          ),
          async ({ body, field }) => {
            const err = assertError(await patch(a, t.id, body), 422, 'validation_error');
            assert.ok(err.fields[field], `${field} in ${JSON.stringify(err.fields)}`);
          },
        ),
        { numRuns: 40 },
      );
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('the longest note keeps its support.log.created payload under 256 KiB; one character more is 422', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      // Control characters are the worst case: JSON escapes each as six bytes (\u0001).
      const worst = '\u0001'.repeat(40_000);
      const res = await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key, body: { note: worst } });
      assert.equal(res.statusCode, 201, res.body.slice(0, 200));
      const row = await h.db
        .selectFrom('events')
        .select('payload')
        .where('account_id', '=', a.accountId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      assert.ok(Buffer.byteLength(row.payload) < 256 * 1024, `payload of ${Buffer.byteLength(row.payload)} bytes`);
      assert.equal(JSON.parse(row.payload).support_log.note, worst);
      const over = assertError(
        await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key, body: { note: 'x'.repeat(40_001) } }),
        422,
        'validation_error',
      );
      assert.equal(over.fields.note, 'too_long');
    });

    test('POST logs: 201, Location, event, ticket updated_at; closed tickets accept logs', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      await patch(a, t.id, { status: 'closed' });
      const seen = (await outboxOf(h.db, a.accountId)).length;
      clock.set('2026-11-23T12:00:00.000Z');
      const res = await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key, body: { note: 'Customer replied', channel: 'email' } });
      assert.equal(res.statusCode, 201);
      const log = res.json();
      assert.deepEqual(log, {
        id: log.id,
        ticket_id: t.id,
        note: 'Customer replied',
        channel: 'email',
        author_user_id: null,
        created_at: '2026-11-23T12:00:00.000Z',
      });
      assert.equal(res.headers.location, `/api/v1/support/tickets/${t.id}/logs/${log.id}`);
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), log);
      assert.deepEqual(await newEvents(a, seen), [
        {
          event_type: 'support.log.created',
          org_id: t.org,
          payload: {
            event_type: 'support.log.created',
            org_id: t.org,
            timestamp: '2026-11-23T12:00:00.000Z',
            support_log_id: log.id,
            support_log: { id: log.id, note: 'Customer replied', channel: 'email' },
          },
        },
      ]);
      const [logEvent] = (await outboxOf(h.db, a.accountId)).slice(seen);
      assert.ok((await h.lastWake())?.includes(logEvent.payload.id as string), 'the dispatcher, woken after the commit, finds the event');
      const ticket = (await call(h, 'GET', `/api/v1/support/tickets/${t.id}`, { key: a.key })).json();
      assert.deepEqual([ticket.status, ticket.updated_at], ['closed', '2026-11-23T12:00:00.000Z']);
      const plain = await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key, body: { note: 'n' } });
      assert.equal(plain.json().channel, 'api');
      const logs = (await call(h, 'GET', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key })).json();
      assert.deepEqual(
        logs.data.map((l: any) => l.note),
        ['n', 'Customer replied', 'D'],
      );
    });

    test('POST logs: tenancy and bad bodies', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const t = await ticketOf(a);
      const theirs = await ticketOf(b);
      const before = await tableCounts(h.db);
      assertError(await call(h, 'POST', `/api/v1/support/tickets/${theirs.id}/logs`, { key: a.key, body: { note: 'x' } }), 404, 'ticket_not_found');
      assertError(await call(h, 'POST', '/api/v1/support/tickets/999999/logs', { key: a.key, body: { note: 'x' } }), 404, 'ticket_not_found');
      await fc.assert(
        fc.asyncProperty(
          badBodies(
            { note: 'hello', channel: 'chat' },
            { note: { kind: 'string', required: true }, channel: { kind: 'string' }, idempotency_key: { kind: 'string' } },
          ),
          async ({ body, field }) => {
            const err = assertError(await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: a.key, body }), 422, 'validation_error');
            assert.ok(err.fields[field], `${field} in ${JSON.stringify(err.fields)}`);
          },
        ),
        { numRuns: 40 },
      );
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      const t = await ticketOf(a);
      await assertCommonAuth(h, a, { method: 'PATCH', url: `/api/v1/support/tickets/${t.id}`, scope: '*', body: { title: 'x' } });
      await assertCommonAuth(h, a, { method: 'POST', url: `/api/v1/support/tickets/${t.id}/logs`, scope: '*', body: { note: 'x' } });
      const writer = await a.keyWith(['support:write', 'support:read']);
      assertError(await call(h, 'PATCH', `/api/v1/support/tickets/${t.id}`, { key: writer, body: { title: 'x' } }), 403, 'forbidden');
      assertError(await call(h, 'POST', `/api/v1/support/tickets/${t.id}/logs`, { key: writer, body: { note: 'x' } }), 403, 'forbidden');
    });
  });
}
