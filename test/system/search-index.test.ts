import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Random } from '../../src/demo/random.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { seedAccount } from '../../src/seed/seed.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness, type TestAccount } from '../helpers/harness.ts';

/** Rows whose text stresses the match: LIKE metacharacters, quotes, accents, mixed case, non-Latin letters. */
const TRICKY = ['100% Renewal_plan', 'Back\\slash "quoted" deal', 'STRASSE Straße', 'Ångström Café Crème', 'İstanbul Ofis', 'ΣΊΣΥΦΟΣ ΑΕ', 'a', 'ab'];

interface Searched {
  name: string;
  path: string;
  /** Every row of the account: id and the lower-cased texts `q` is matched against. */
  rows: () => Promise<{ id: number; texts: (string | null)[] }[]>;
}

for (const engine of engines()) {
  describe(`search through the trigram index equals a plain scan [${engine}]`, () => {
    let h: Harness;
    let a: TestAccount;
    let other: TestAccount;
    before(async () => {
      h = await createHarness(engine);
      a = await createTestAccount(h);
      other = await createTestAccount(h);
      await seedAccount(h.database.handle, systemClock, { accountId: a.accountId, deals: 400, seed: 11 });
      // The other account holds the same words: its rows must never show.
      await seedAccount(h.database.handle, systemClock, { accountId: other.accountId, deals: 100, seed: 11 });
      for (const [i, title] of TRICKY.entries()) {
        const org = await call(h, 'POST', '/api/v1/orgs', {
          key: a.key,
          body: { name: title, external_ids: [{ source_app: 'helpdesk', external_org_id: `x-${i}` }] },
        });
        assert.equal(org.statusCode, 201, org.body);
        const orgId = org.json().id;
        const writes = [
          call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: orgId, title } }),
          call(h, 'POST', '/api/v1/contacts', { key: a.key, body: { org_id: orgId, name: title } }),
          call(h, 'POST', '/api/v1/support/tickets', {
            key: a.key,
            body: { source_app: 'helpdesk', external_org_id: `x-${i}`, title, details: 'd', contact_email: `it${i}@tricky.example` },
          }),
        ];
        for (const res of await Promise.all(writes)) assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(() => h.close());

    const of = (table: 'deals' | 'tickets' | 'orgs' | 'contacts', columns: string[]) => async () => {
      const rows = (await h.db
        .selectFrom(table)
        .select(['id', ...columns] as never[])
        .where('account_id', '=', a.accountId)
        .execute()) as Record<string, unknown>[];
      return rows.map((r) => ({ id: Number(r.id), texts: columns.map((c) => r[c] as string | null) }));
    };
    const lists: Searched[] = [
      { name: 'deals', path: '/api/v1/deals', rows: of('deals', ['title_lc']) },
      { name: 'tickets', path: '/api/v1/support/tickets', rows: of('tickets', ['title_lc']) },
      { name: 'orgs', path: '/api/v1/orgs', rows: of('orgs', ['name_lc', 'domain']) },
      { name: 'contacts', path: '/api/v1/contacts', rows: of('contacts', ['name_lc', 'email_lc']) },
    ];

    /** Random terms: pieces of real texts (1 to 7 characters) in random case, and strings that occur nowhere. */
    function terms(rnd: Random, texts: string[], n: number): string[] {
      const out = ['%', '_', '\\', '"', 'ß', 'STRASSE', 'ÅNGSTRÖM', 'crème', 'İSTANBUL', 'σίσυφος', 'zzzq', 'xyz'];
      while (out.length < n) {
        const text = rnd.pick(texts);
        const chars = [...text];
        const len = rnd.int(1, Math.min(7, chars.length));
        const start = rnd.int(0, chars.length - len);
        const piece = chars
          .slice(start, start + len)
          .map((c) => (rnd.chance(0.5) ? c.toUpperCase() : c))
          .join('');
        if (piece.trim() !== '') out.push(rnd.chance(0.1) ? piece + rnd.token(2) : piece);
      }
      return out;
    }

    for (const list of lists) {
      test(`${list.name}: total and page for 60 random terms are the scan's`, async () => {
        const rows = await list.rows();
        const texts = rows.flatMap((r) => r.texts.filter((t): t is string => t !== null));
        const rnd = new Random(engine === 'sqlite' ? 21 : 22);
        let nonEmpty = 0;
        for (const q of terms(rnd, texts, 60)) {
          const needle = q.toLowerCase();
          const expected = new Set(rows.filter((r) => r.texts.some((t) => t?.includes(needle))).map((r) => r.id));
          const res = await call(h, 'GET', list.path, { key: a.key, query: { q, per_page: 100 } });
          assert.equal(res.statusCode, 200, res.body);
          const body = res.json();
          assert.equal(body.pagination.total, expected.size, `${list.name} q=${JSON.stringify(q)}`);
          assert.equal(body.data.length, Math.min(100, expected.size), `${list.name} q=${JSON.stringify(q)} page size`);
          for (const item of body.data) assert.ok(expected.has(item.id), `${list.name} q=${JSON.stringify(q)}: ${item.id} does not match`);
          if (expected.size > 0) nonEmpty++;
        }
        assert.ok(nonEmpty > 30, `most terms match something (${nonEmpty})`);
      });
    }

    // A page of a common term is found by walking the sort's index, of a rare one through the
    // trigram index (docs/scaling.md#search): either way each page is the scan's, in the sort's order.
    for (const table of ['deals', 'tickets'] as const) {
      test(`${table}: pages of common and rare terms, sorted, are the scan's pages`, async () => {
        const rows = (await h.db.selectFrom(table).select(['id', 'title_lc', 'created_at']).where('account_id', '=', a.accountId).execute()) as {
          id: number;
          title_lc: string;
          created_at: number;
        }[];
        const pieces = new Map<string, number>();
        for (const r of rows)
          for (const piece of new Set([...r.title_lc].map((_, i, c) => c.slice(i, i + 3).join('')).filter((p) => [...p].length === 3)))
            pieces.set(piece, (pieces.get(piece) ?? 0) + 1);
        const byFrequency = [...pieces.entries()].filter(([p]) => p.trim().length === 3).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
        const common = byFrequency.slice(0, 3).map(([p]) => p);
        const rare = byFrequency
          .filter(([, n]) => n >= 2 && n <= 4)
          .slice(0, 3)
          .map(([p]) => p);
        // Common enough that its first page is expected within fewer rows than it matches (per_page × rows / n < n).
        assert.ok(byFrequency[0]![1] ** 2 > 5 * rows.length, `the commonest piece is common (${byFrequency[0]![1]} of ${rows.length})`);
        const orders = [
          { sort: 'created_at', direction: 'desc', key: (r: (typeof rows)[number]) => [Number(r.created_at), Number(r.id)] },
          { sort: 'title', direction: 'asc', key: (r: (typeof rows)[number]) => [r.title_lc, Number(r.id)] },
        ] as const;
        const path = table === 'deals' ? '/api/v1/deals' : '/api/v1/support/tickets';
        for (const q of [...common, ...rare]) {
          const matching = rows.filter((r) => r.title_lc.includes(q));
          for (const order of orders) {
            const sign = order.direction === 'asc' ? 1 : -1;
            const cmp = (x: (typeof rows)[number], y: (typeof rows)[number]) => {
              const [kx, ky] = [order.key(x), order.key(y)];
              for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i]) return (kx[i]! < ky[i]! ? -1 : 1) * sign;
              return 0;
            };
            const expected = [...matching].sort(cmp).map((r) => Number(r.id));
            for (const pageNo of [1, 2, 4]) {
              const res = await call(h, 'GET', path, {
                key: a.key,
                query: { q: q.toUpperCase(), sort: order.sort, direction: order.direction, per_page: 5, page: pageNo },
              });
              assert.equal(res.statusCode, 200, res.body);
              const body = res.json();
              assert.equal(body.pagination.total, matching.length, `${table} q=${q}`);
              assert.deepEqual(
                body.data.map((d: { id: number }) => d.id),
                expected.slice((pageNo - 1) * 5, pageNo * 5),
                `${table} q=${JSON.stringify(q)} sort=${order.sort} ${order.direction} page ${pageNo}`,
              );
            }
          }
        }
      });
    }
  });
}

for (const engine of engines()) {
  describe(`search totals are each account's own, and follow updates and deletes [${engine}]`, () => {
    let h: Harness;
    let big: TestAccount;
    let small: TestAccount;
    /** Ids of what each account created, by list. */
    const made = new Map<TestAccount, { deals: number[]; tickets: number[]; orgs: number[]; contacts: number[] }>();
    before(async () => {
      h = await createHarness(engine);
      // Account ids in both orders around the big one: candidates of one range must never leak into the other.
      small = await createTestAccount(h);
      big = await createTestAccount(h);
      const late = await createTestAccount(h);
      const texts = new Map<TestAccount, string[]>([
        [small, ['Wombat pilot 1', 'Wombat pilot 2', 'Quokka pilot']],
        [big, Array.from({ length: 30 }, (_, i) => `Quokka renewal ${i}`)],
        [late, ['Quokka expansion', 'Wombat expansion']],
      ]);
      for (const [account, titles] of texts) {
        const ids = { deals: [] as number[], tickets: [] as number[], orgs: [] as number[], contacts: [] as number[] };
        made.set(account, ids);
        for (const [i, title] of titles.entries()) {
          const org = await call(h, 'POST', '/api/v1/orgs', {
            key: account.key,
            body: { name: title, external_ids: [{ source_app: 'helpdesk', external_org_id: `t-${i}` }] },
          });
          assert.equal(org.statusCode, 201, org.body);
          ids.orgs.push(org.json().id);
          const [deal, contact, ticket] = await Promise.all([
            call(h, 'POST', '/api/v1/deals', { key: account.key, body: { org_id: org.json().id, title } }),
            call(h, 'POST', '/api/v1/contacts', { key: account.key, body: { org_id: org.json().id, name: title } }),
            call(h, 'POST', '/api/v1/support/tickets', {
              key: account.key,
              body: { source_app: 'helpdesk', external_org_id: `t-${i}`, title, details: 'd', contact_email: `t${i}@tenancy.example` },
            }),
          ]);
          for (const res of [deal, contact, ticket]) assert.equal(res.statusCode, 201, res.body);
          ids.deals.push(deal.json().id);
          ids.contacts.push(contact.json().id);
          ids.tickets.push(ticket.json().id);
        }
      }
    });
    after(() => h.close());

    const PATHS = { deals: '/api/v1/deals', tickets: '/api/v1/support/tickets', orgs: '/api/v1/orgs', contacts: '/api/v1/contacts' };
    async function totals(account: TestAccount, q: string): Promise<Record<keyof typeof PATHS, number>> {
      const out = {} as Record<keyof typeof PATHS, number>;
      for (const [list, path] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
        const res = await call(h, 'GET', path, { key: account.key, query: { q, per_page: 100 } });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.data.length, Math.min(100, body.pagination.total), `${list} q=${q}: page and total agree`);
        for (const item of body.data) assert.ok(made.get(account)![list].includes(item.id), `${list} q=${q}: ${item.id} is another account's`);
        out[list] = body.pagination.total;
      }
      return out;
    }
    const every = (n: number) => ({ deals: n, tickets: n, orgs: n, contacts: n });

    test('a term common in one account and absent in another counts each account’s own rows', async () => {
      assert.deepEqual(await totals(big, 'quokka'), every(30));
      assert.deepEqual(await totals(small, 'QUOKKA'), every(1));
      assert.deepEqual(await totals(small, 'wombat'), every(2));
      assert.deepEqual(await totals(big, 'wombat'), every(0));
      assert.deepEqual(await totals(big, 'renewal 2'), every(1 + 10));
      assert.deepEqual(await totals(small, 'renewal'), every(0));
    });

    test('a domain is matched without regard to case (it is kept as sent)', async () => {
      const org = await call(h, 'POST', '/api/v1/orgs', { key: small.key, body: { name: 'Mixed case domain', domain: 'Acme-Widgets.IO' } });
      assert.equal(org.statusCode, 201, org.body);
      made.get(small)!.orgs.push(org.json().id);
      for (const q of ['acme-widgets', 'WIDGETS.io', 'ts.I', 'Ac']) {
        const res = await call(h, 'GET', '/api/v1/orgs', { key: small.key, query: { q } });
        assert.deepEqual(
          res.json().data.map((o: { id: number }) => o.id),
          [org.json().id],
          `q=${q}`,
        );
      }
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: big.key, query: { q: 'acme-widgets' } })).json().pagination.total, 0);
    });

    if (engine === 'sqlite') {
      test('the last account id the SQLite index holds is searched like any other; a row beyond its range is refused, nothing written', async () => {
        const last = 2 ** 23 - 1;
        await h.db.insertInto('accounts').values({ id: last, name: 'Last', created_at: Date.now() }).execute();
        const key = (await createApiKey({ db: h.db, clock: systemClock }, { accountId: last, name: 'k', scopes: ['*'], rateLimitPerMinute: null })).secret;
        const org = await call(h, 'POST', '/api/v1/orgs', { key, body: { name: 'Quokka at the end', domain: 'end.example' } });
        assert.equal(org.statusCode, 201, org.body);
        const deal = await call(h, 'POST', '/api/v1/deals', { key, body: { org_id: org.json().id, title: 'Quokka at the end' } });
        assert.equal(deal.statusCode, 201, deal.body);
        for (const path of ['/api/v1/orgs', '/api/v1/deals']) {
          const res = await call(h, 'GET', path, { key, query: { q: 'quokka' } });
          assert.equal(res.json().pagination.total, 1, path);
          assert.equal(res.json().data.length, 1, path);
        }
        // The first account id past the range: the write fails whole.
        await h.db
          .insertInto('accounts')
          .values({ id: last + 1, name: 'Beyond', created_at: Date.now() })
          .execute();
        const before = await h.db
          .selectFrom('orgs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        await assert.rejects(
          h.db
            .insertInto('orgs')
            .values({ account_id: last + 1, name: 'Beyond', name_lc: 'beyond', domain: null, created_at: Date.now(), updated_at: Date.now() } as never)
            .execute(),
          /beyond the search index range/,
        );
        const after = await h.db
          .selectFrom('orgs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(after.n), Number(before.n));
        assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: big.key, query: { q: 'beyond' } })).json().pagination.total, 0);
      });
    }

    test('a changed title is found by its new text only, and a deleted row is gone', async () => {
      const [dealId] = made.get(big)!.deals;
      const [ticketId] = made.get(big)!.tickets;
      const deal = await call(h, 'PATCH', `/api/v1/deals/${dealId}`, { key: big.key, body: { title: 'Numbat upgrade' } });
      assert.equal(deal.statusCode, 200, deal.body);
      const ticket = await call(h, 'PATCH', `/api/v1/support/tickets/${ticketId}`, { key: big.key, body: { title: 'Numbat upgrade' } });
      assert.equal(ticket.statusCode, 200, ticket.body);
      assert.deepEqual(await totals(big, 'quokka'), { deals: 29, tickets: 29, orgs: 30, contacts: 30 });
      assert.deepEqual(await totals(big, 'numbat'), { deals: 1, tickets: 1, orgs: 0, contacts: 0 });
      assert.deepEqual(await totals(small, 'numbat'), every(0));
      // The API deletes none of these rows; the index must follow a delete all the same (an account's removal, a repair).
      const gone = made.get(big)!;
      await h.db.deleteFrom('deals').where('id', 'in', gone.deals.slice(1, 4)).execute();
      await h.db.deleteFrom('contacts').where('id', 'in', gone.contacts.slice(0, 5)).execute();
      assert.deepEqual(await totals(big, 'quokka'), { deals: 26, tickets: 29, orgs: 30, contacts: 25 });
      assert.deepEqual(await totals(small, 'quokka'), every(1));
      // A new row after the deletes is found.
      const again = await call(h, 'POST', '/api/v1/deals', { key: big.key, body: { org_id: gone.orgs[0], title: 'Quokka return' } });
      assert.equal(again.statusCode, 201, again.body);
      gone.deals.push(again.json().id);
      assert.equal((await totals(big, 'quokka')).deals, 27);
      assert.equal((await totals(big, 'kka ret')).deals, 1);
      if (engine === 'sqlite') {
        // The FTS5 table holds exactly the live rows' texts: no entry of a deleted row or of a replaced title is left.
        const { rows } = await sql<{ n: number }>`select count(*) as n from deals_trigrams where deals_trigrams match '"quokka"'`.execute(h.db);
        const live = await sql<{ n: number }>`select count(*) as n from deals where title_lc like '%quokka%'`.execute(h.db);
        assert.ok(Number(live.rows[0].n) >= 27 + 1 + 1, 'the big, small and late accounts’ deals at least');
        assert.equal(Number(rows[0].n), Number(live.rows[0].n));
      }
    });
  });
}
