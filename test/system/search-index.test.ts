import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Random } from '../../src/demo/random.ts';
import { systemClock } from '../../src/lib/clock.ts';
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
  });
}
