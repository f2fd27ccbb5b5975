import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness, type TestAccount } from '../helpers/harness.ts';
import { assertCommonAuth, assertError } from '../helpers/route-checks.ts';
import { outboxOf, tableCounts } from '../helpers/counts.ts';
import { assertRefusesAll, badBodies, insertContact, insertOrg, linkPair } from '../helpers/support-fixtures.ts';

const URL = '/api/v1/support/tickets';
const NOW = '2026-11-20T10:00:00.000Z';

/** Outbox rows with the generated event id checked and removed, so the rest compares exactly. */
async function events(h: Harness, a: TestAccount) {
  return (await outboxOf(h.db, a.accountId)).map((e) => {
    const { id, ...rest } = e.payload;
    assert.match(id, /^evt_[A-Za-z0-9_-]{22}$/);
    return { ...e, payload: rest };
  });
}

for (const engine of engines()) {
  describe(`POST /support/tickets [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
    });
    after(() => h.close());

    const create = (a: TestAccount, body: unknown) => call(h, 'POST', URL, { key: a.key, body });

    test('mapped pair, contact found by e-mail: ticket, first log and both events', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      await linkPair(h, a.accountId, org, 'helpdesk', 'acme-1');
      const contact = await insertContact(h, a.accountId, org, { email: 'Jane@Acme.io', name: 'Jane' });
      const res = await create(a, {
        source_app: 'helpdesk',
        external_org_id: 'acme-1',
        title: 'Printer on fire',
        details: 'It is really on fire.',
        contact_email: 'jane@ACME.io',
        note: 'Called the customer back.',
        channel: 'phone',
        external_reference: 'CASE-7',
        metadata_json: { priority: 'high', tags: ['hw'], nested: { n: 1 } },
      });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.equal(res.headers.location, `/api/v1/support/tickets/${body.id}`);
      assert.deepEqual(body, {
        id: body.id,
        org_id: org,
        contact_id: contact,
        owner_user_id: null,
        title: 'Printer on fire',
        details: 'It is really on fire.',
        status: 'open',
        channel: 'phone',
        external_reference: 'CASE-7',
        metadata: { priority: 'high', tags: ['hw'], nested: { n: 1 } },
        created_at: NOW,
        updated_at: NOW,
        closed_at: null,
        first_log: { id: body.first_log.id, ticket_id: body.id, note: 'Called the customer back.', channel: 'phone', author_user_id: null, created_at: NOW },
      });
      const { first_log: _log, ...ticket } = body;
      assert.deepEqual((await call(h, 'GET', res.headers.location as string, { key: a.key })).json(), ticket);
      assert.deepEqual(await events(h, a), [
        {
          event_type: 'support.ticket.opened',
          org_id: org,
          payload: {
            event_type: 'support.ticket.opened',
            org_id: org,
            timestamp: NOW,
            slog_id: body.id,
            slog: { id: body.id, title: 'Printer on fire', status: 'open' },
          },
        },
        {
          event_type: 'support.log.created',
          org_id: org,
          payload: {
            event_type: 'support.log.created',
            org_id: org,
            timestamp: NOW,
            support_log_id: body.first_log.id,
            support_log: { id: body.first_log.id, note: 'Called the customer back.', channel: 'phone' },
          },
        },
      ]);
      const woken = (await h.lastWake()) ?? [];
      for (const e of await outboxOf(h.db, a.accountId))
        assert.ok(woken.includes(e.payload.id as string), 'the dispatcher, woken after the commit, finds both events');
      const contacts = await h.db.selectFrom('contacts').select('id').where('account_id', '=', a.accountId).execute();
      assert.equal(contacts.length, 1, 'no contact created');
    });

    test('first use: links the pair from org_name and creates the contact; defaults for note and channel', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Globex');
      await insertOrg(h, a.accountId, 'Globex Two');
      const res = await create(a, {
        source_app: 'helpdesk',
        external_org_id: 'gx',
        org_name: 'globex',
        title: 'Login fails',
        details: 'Since Monday.',
        contact_email: 'New.Person@Globex.com',
        contact_name: 'New Person',
      });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.equal(body.org_id, org);
      assert.deepEqual([body.channel, body.external_reference, body.metadata], ['api', null, null]);
      assert.deepEqual([body.first_log.note, body.first_log.channel], ['Since Monday.', 'api']);
      const contact = await h.db.selectFrom('contacts').selectAll().where('id', '=', body.contact_id).executeTakeFirstOrThrow();
      assert.deepEqual(
        [Number(contact.account_id), Number(contact.org_id), contact.email, contact.email_lc, contact.name, Number(contact.created_at)],
        [a.accountId, org, 'New.Person@Globex.com', 'new.person@globex.com', 'New Person', Date.parse(NOW)],
      );
      const link = await h.db
        .selectFrom('org_external_ids')
        .select('org_id')
        .where('account_id', '=', a.accountId)
        .where('external_org_id', '=', 'gx')
        .executeTakeFirstOrThrow();
      assert.equal(Number(link.org_id), org);
      // Next time the mapping suffices, and the same e-mail finds the contact made the first time.
      const again = await create(a, { source_app: 'helpdesk', external_org_id: 'gx', title: 'Again', details: 'd', contact_email: 'new.person@globex.com' });
      assert.equal(again.json().contact_id, body.contact_id);
      assert.deepEqual(
        (await events(h, a)).map((e) => [e.event_type, e.org_id]),
        [
          ['support.ticket.opened', org],
          ['support.log.created', org],
          ['support.ticket.opened', org],
          ['support.log.created', org],
        ],
      );
    });

    test('first use linked by contact e-mail, which then is the contact', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Initech');
      const contact = await insertContact(h, a.accountId, org, { email: 'bill@initech.com' });
      const res = await create(a, { source_app: 'hd', external_org_id: 'i', title: 'T', details: 'D', contact_email: 'BILL@initech.com' });
      assert.deepEqual([res.statusCode, res.json().org_id, res.json().contact_id], [201, org, contact]);
    });

    test('contact by id: must belong to the resolved org and the account', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Acme');
      const otherOrg = await insertOrg(h, a.accountId, 'Other');
      await linkPair(h, a.accountId, org, 'hd', 'acme');
      const mine = await insertContact(h, a.accountId, org, { email: 'x@acme.io' });
      const elsewhere = await insertContact(h, a.accountId, otherOrg, { email: 'y@other.io' });
      const theirs = await insertContact(h, b.accountId, await insertOrg(h, b.accountId, 'B Org'), { email: 'z@b.io' });
      const base = { source_app: 'hd', external_org_id: 'acme', title: 'T', details: 'D' };
      const before = await tableCounts(h.db);
      for (const id of [theirs, 999999]) assertError(await create(a, { ...base, contact_id: id }), 404, 'contact_not_found');
      // A contact of another org of the same account exists: it is refused as not belonging, as on POST /deals.
      const misplaced = assertError(await create(a, { ...base, contact_id: elsewhere }), 422, 'validation_error');
      assert.deepEqual(misplaced.fields, { contact_id: 'not_in_org' });
      assert.deepEqual(await tableCounts(h.db), before);
      // contact_id wins over contact_email.
      const res = await create(a, { ...base, contact_id: mine, contact_email: 'someone.else@acme.io' });
      assert.deepEqual([res.statusCode, res.json().contact_id], [201, mine]);
      assert.equal((await tableCounts(h.db)).contacts, before.contacts);
    });

    test('neither contact_id nor contact_email: the exact 422 body', async () => {
      const a = await createTestAccount(h);
      const before = await tableCounts(h.db);
      const res = await create(a, { source_app: 'hd', external_org_id: 'x', title: 'T', details: 'D', org_name: 'Acme' });
      assert.equal(res.statusCode, 422);
      const body = res.json();
      assert.deepEqual(body, {
        error: 'validation_error',
        message: 'contact_email is required unless contact_id is sent.',
        fields: { contact_email: 'required' },
        request_id: res.headers['x-request-id'],
      });
      assert.deepEqual(await tableCounts(h.db), before);
      // The contact rule is reported together with schema errors, and null or empty count as missing.
      const empty = assertError(await create(a, {}), 422, 'validation_error');
      assert.deepEqual(empty.fields, {
        source_app: 'required',
        external_org_id: 'required',
        title: 'required',
        details: 'required',
        contact_email: 'required',
      });
      const partial = assertError(await create(a, { source_app: 'hd', title: 'T', details: 'D' }), 422, 'validation_error');
      assert.deepEqual(partial.fields, { external_org_id: 'required', contact_email: 'required' });
      for (const contact_email of [null, '']) {
        const res2 = assertError(
          await create(a, { source_app: 'hd', external_org_id: 'x', title: 'T', details: 'D', org_name: 'Acme', contact_email }),
          422,
          'validation_error',
        );
        assert.equal(res2.fields.contact_email, 'required');
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('org outcomes of an unmapped pair: lookup required, ambiguous, not found; nothing written', async () => {
      const a = await createTestAccount(h);
      const twin = await insertOrg(h, a.accountId, 'Twin');
      await insertOrg(h, a.accountId, 'TWIN');
      const contact = await insertContact(h, a.accountId, twin, { email: 'c@twin.io' });
      const base = { source_app: 'hd', external_org_id: 'new', title: 'T', details: 'D' };
      const before = await tableCounts(h.db);
      assertError(await create(a, { ...base, contact_id: contact }), 422, 'org_lookup_required');
      assertError(await create(a, { ...base, contact_email: 'nobody@nowhere.io' }), 404, 'org_not_found');
      assertError(await create(a, { ...base, contact_email: 'nobody@nowhere.io', org_name: 'twin' }), 409, 'org_ambiguous');
      assert.deepEqual(await tableCounts(h.db), before);
      // The hints of resolve apply: the e-mail and the name together single out one twin.
      const res = await create(a, { ...base, contact_email: 'c@twin.io', org_name: 'twin' });
      assert.deepEqual([res.statusCode, res.json().org_id, res.json().contact_id], [201, twin, contact]);
    });

    test('another account’s mapping and orgs are invisible', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const theirs = await insertOrg(h, b.accountId, 'Shared Name');
      await linkPair(h, b.accountId, theirs, 'hd', 'same');
      const before = await tableCounts(h.db);
      assertError(await create(a, { source_app: 'hd', external_org_id: 'same', title: 'T', details: 'D', contact_email: 'a@b.io' }), 404, 'org_not_found');
      assertError(
        await create(a, { source_app: 'hd', external_org_id: 'same', title: 'T', details: 'D', contact_email: 'a@b.io', org_name: 'Shared Name' }),
        404,
        'org_not_found',
      );
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('a failure late in the transaction leaves nothing: no link, contact, ticket, log or event', async () => {
      const a = await createTestAccount(h);
      await insertOrg(h, a.accountId, 'Rollback Co');
      if (h.engine === 'sqlite') {
        await sql`create trigger fail_log_event before insert on events when new.event_type = 'support.log.created' begin select raise(abort, 'boom'); end`.execute(
          h.db,
        );
      } else {
        await sql`create function fail_log_event() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`.execute(h.db);
        await sql`create trigger fail_log_event before insert on events for each row when (new.event_type = 'support.log.created') execute function fail_log_event()`.execute(
          h.db,
        );
      }
      try {
        const before = await tableCounts(h.db);
        const res = await create(a, { source_app: 'hd', external_org_id: 'rb', org_name: 'Rollback Co', title: 'T', details: 'D', contact_email: 'new@rb.io' });
        assertError(res, 500, 'internal_error');
        assert.deepEqual(await tableCounts(h.db), before);
      } finally {
        await sql`drop trigger fail_log_event${h.engine === 'postgres' ? sql` on events` : sql``}`.execute(h.db);
        if (h.engine === 'postgres') await sql`drop function fail_log_event()`.execute(h.db);
      }
      const ok = await create(a, { source_app: 'hd', external_org_id: 'rb', org_name: 'Rollback Co', title: 'T', details: 'D', contact_email: 'new@rb.io' });
      assert.equal(ok.statusCode, 201);
    });

    test('simultaneous first tickets of one unmapped pair link it once', async () => {
      const a = await createTestAccount(h);
      const org = await insertOrg(h, a.accountId, 'Busy Co');
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          create(a, { source_app: 'hd', external_org_id: 'busy', org_name: 'Busy Co', title: `T${i}`, details: 'D', contact_email: `c${i}@busy.io` }),
        ),
      );
      assert.deepEqual(
        results.map((r) => [r.statusCode, r.json().org_id]),
        Array.from({ length: 5 }, () => [201, org]),
      );
      const links = await h.db.selectFrom('org_external_ids').select('org_id').where('account_id', '=', a.accountId).execute();
      assert.deepEqual(
        links.map((l) => Number(l.org_id)),
        [org],
      );
      assert.equal((await outboxOf(h.db, a.accountId)).length, 10);
    });

    test('an idempotent retry answers the first response and creates nothing more', async () => {
      const a = await createTestAccount(h);
      await linkPair(h, a.accountId, await insertOrg(h, a.accountId, 'Idem'), 'hd', 'idem');
      const body = { source_app: 'hd', external_org_id: 'idem', title: 'T', details: 'D', contact_email: 'i@idem.io', idempotency_key: 'ticket-1' };
      const first = await create(a, body);
      const counts = await tableCounts(h.db);
      const second = await create(a, body);
      assert.equal(second.statusCode, 201);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.deepEqual(second.json(), first.json());
      assert.deepEqual(await tableCounts(h.db), counts);
    });

    test('validation: each bad field is named', async () => {
      const a = await createTestAccount(h);
      const base = { source_app: 'hd', external_org_id: 'x', title: 'T', details: 'D', contact_email: 'a@b.io' };
      const cases: [Record<string, unknown>, string, string][] = [
        [{ ...base, title: undefined }, 'title', 'required'],
        [{ ...base, details: undefined }, 'details', 'required'],
        [{ ...base, source_app: undefined }, 'source_app', 'required'],
        [{ ...base, external_org_id: undefined }, 'external_org_id', 'required'],
        [{ ...base, contact_email: 'not-an-email' }, 'contact_email', 'invalid_format'],
        [{ ...base, contact_id: '5' }, 'contact_id', 'invalid_type'],
        [{ ...base, contact_id: 0 }, 'contact_id', 'too_small'],
        [{ ...base, metadata_json: [1, 2] }, 'metadata_json', 'invalid_type'],
        [{ ...base, metadata_json: 'text' }, 'metadata_json', 'invalid_type'],
        [{ ...base, metadata_json: { big: 'x'.repeat(70_000) } }, 'metadata_json', 'too_large'],
        [{ ...base, metadata_json: JSON.parse('{"a":'.repeat(17) + '1' + '}'.repeat(17)) }, 'metadata_json', 'too_deep'],
        [{ ...base, channel: '' }, 'channel', 'too_short'],
        [{ ...base, status: 'closed' }, 'status', 'unknown_field'],
        [{ ...base, title: 'x'.repeat(501) }, 'title', 'too_long'],
      ];
      const before = await tableCounts(h.db);
      for (const [body, field, reason] of cases) {
        const err = assertError(await create(a, body), 422, 'validation_error');
        assert.equal(err.fields[field], reason, JSON.stringify(body).slice(0, 200));
      }
      assert.deepEqual(await tableCounts(h.db), before);
    });

    test('property: bad bodies are 422 naming the field and change nothing', async () => {
      const a = await createTestAccount(h);
      await linkPair(h, a.accountId, await insertOrg(h, a.accountId, 'Prop'), 'hd', 'prop');
      const valid = {
        source_app: 'hd',
        external_org_id: 'prop',
        title: 'T',
        details: 'D',
        contact_email: 'p@prop.io',
        org_name: 'Prop',
        note: 'n',
        channel: 'email',
        external_reference: 'R-1',
        metadata_json: { a: 1 },
        contact_name: 'P',
      };
      const spec = {
        source_app: { kind: 'string', required: true },
        external_org_id: { kind: 'string', required: true },
        title: { kind: 'string', required: true },
        details: { kind: 'string', required: true },
        contact_email: { kind: 'email' },
        contact_id: { kind: 'id' },
        contact_name: { kind: 'string' },
        org_name: { kind: 'string' },
        note: { kind: 'string' },
        channel: { kind: 'string' },
        external_reference: { kind: 'string' },
        metadata_json: { kind: 'object' },
        idempotency_key: { kind: 'string' },
      } as const;
      await assertRefusesAll(h, badBodies(valid, spec), (body) => create(a, body), { numRuns: 50 });
    });

    test('common authentication and scope checks', async () => {
      const a = await createTestAccount(h);
      await assertCommonAuth(h, a, {
        method: 'POST',
        url: URL,
        scope: 'support:write',
        body: { source_app: 'x', external_org_id: 'y', title: 'T', details: 'D' },
      });
      const readOnly = await a.keyWith(['read']);
      assertError(await create({ ...a, key: readOnly }, { source_app: 'x' }), 403, 'forbidden');
    });
  });
}
