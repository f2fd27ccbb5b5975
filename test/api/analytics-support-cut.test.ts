// Support by customer in an account of a thousand orgs or more: for one calendar year or month the
// report reads the facts of the orgs at or above the cut only (analytics.support.repository.ts,
// supportByCustomer); a period of date-times reads the records and groups every org. Both must give
// the same answer, ties at the cut and the fallbacks included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { at } from './analytics-fixture.ts';

const NOW = '2026-11-21T12:00:00.000Z';
const ORGS = 1_200;

/** Tickets of an org: `created` in the month, `closed` of them closed the next day, `logs` on the first. */
interface OrgTickets {
  created: number;
  closed: number;
  logs: number;
}

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 400) await insert(rows.slice(i, i + 400));
}

/** An account of `ORGS` orgs whose tickets (created 2026-11-05) follow `spec(i)` for the i-th org. */
async function account(h: Harness, spec: (i: number) => OrgTickets) {
  const a = await createTestAccount(h);
  const now = at('2026-01-01T00:00:00');
  const orgIds: number[] = [];
  await insertChunks(
    Array.from({ length: ORGS }, (_, i) => i),
    async (chunk) => {
      const made = await h.db
        .insertInto('orgs')
        .values(chunk.map((i) => ({ account_id: a.accountId, name: `Org ${i}`, name_lc: `org ${i}`, domain: null, created_at: now, updated_at: now })))
        .returning('id')
        .execute();
      orgIds.push(...made.map((r) => Number(r.id)));
    },
  );
  const created = at('2026-11-05T10:00:00');
  const closedAt = at('2026-11-06T10:00:00');
  const tickets = orgIds.flatMap((orgId, i) => {
    const s = spec(i);
    return Array.from({ length: s.created }, (_, k) => ({
      account_id: a.accountId,
      org_id: orgId,
      contact_id: null,
      owner_user_id: null,
      title: 'T',
      title_lc: 't',
      details: 'd',
      status: k < s.closed ? ('closed' as const) : k % 2 ? ('pending' as const) : ('open' as const),
      channel: 'api',
      external_reference: null,
      metadata: null,
      source_app: null,
      created_at: created,
      updated_at: created,
      closed_at: k < s.closed ? closedAt : null,
    }));
  });
  const ticketIds: { id: number; org_id: number }[] = [];
  await insertChunks(tickets, async (chunk) => ticketIds.push(...(await h.db.insertInto('tickets').values(chunk).returning(['id', 'org_id']).execute())));
  const firstOf = new Map<number, number>();
  for (const t of ticketIds) if (!firstOf.has(Number(t.org_id))) firstOf.set(Number(t.org_id), Number(t.id));
  const logs = orgIds.flatMap((orgId, i) =>
    firstOf.has(orgId)
      ? Array.from({ length: spec(i).logs }, () => ({
          account_id: a.accountId,
          ticket_id: firstOf.get(orgId)!,
          org_id: orgId,
          note: 'n',
          channel: 'api',
          author_user_id: null,
          created_at: closedAt,
        }))
      : [],
  );
  await insertChunks(logs, (chunk) => h.db.insertInto('support_logs').values(chunk).execute());
  return a;
}

for (const engine of engines()) {
  describe(`support by customer in an account of ${ORGS} orgs: the candidates at the cut equal grouping every org [${engine}]`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { clock: new FixedClock(NOW) });
    });
    after(() => h.close());

    const support = async (key: string, query: Record<string, string | number>) => {
      const res = await call(h, 'GET', '/api/v1/analytics/support', { key, query });
      assert.equal(res.statusCode, 200, res.body);
      // The periods themselves differ (a calendar range against instants): everything else must not.
      return JSON.parse(res.body, (k, v) => (k === 'period' || k === 'range' ? undefined : v));
    };

    /** The rollup's answer (this year, this month) equals the records' for the same instants; returns this year's customers. */
    const sameAsRecords = async (key: string) => {
      const year = await support(key, { range: 'this_year', compare: 1 });
      assert.deepEqual(year, await support(key, { from: '2026-01-01T00:00:00Z', to: '2026-12-31T23:59:59.998Z', compare: 1 }));
      const month = await support(key, { range: 'this_month', compare: 1 });
      assert.deepEqual(month, await support(key, { from: '2026-11-01T00:00:00Z', to: '2026-11-30T23:59:59.998Z', compare: 1 }));
      assert.deepEqual(month.by_customer, year.by_customer);
      return year.by_customer as { org_id: number; name: string; created: number; closed: number; support_updates: number; currently_open: number }[];
    };

    test('300 orgs at or above the cut, 260 of them tied at it and ranked by closed, updates, open and id', async () => {
      // 40 orgs with 10 to 14 tickets, then 260 with 3 (the 50th busiest has 3), then every third with 1.
      const a = await account(h, (i) => {
        const created = i < 40 ? 10 + (i % 5) : i < 300 ? 3 : i % 3 === 0 ? 1 : 0;
        return { created, closed: (i * 7) % (created + 1), logs: (i * 3) % 4 };
      });
      const rows = await sameAsRecords(a.key);
      assert.equal(rows.length, 50);
      assert.deepEqual(
        rows.slice(38, 42).map((r) => r.created),
        [10, 10, 3, 3],
      );
      // Among the tied orgs, the most closed first (3 of 3), then the most updates.
      assert.deepEqual(
        rows.slice(40, 43).map((r) => [r.created, r.closed]),
        [
          [3, 3],
          [3, 3],
          [3, 3],
        ],
      );
      assert.ok(
        rows
          .slice(40)
          .every((r, k, all) => k === 0 || all[k - 1].closed > r.closed || (all[k - 1].closed === r.closed && all[k - 1].support_updates >= r.support_updates)),
      );
    });

    test('more orgs tied at the cut than the candidates read by key, and fewer busy orgs than the list holds: every org grouped', async () => {
      // Every org has one ticket: 1,200 orgs at the cut.
      const tied = await account(h, (i) => ({ created: 1, closed: i % 2, logs: i % 3 }));
      const rows = await sameAsRecords(tied.key);
      assert.equal(rows.length, 50);
      assert.deepEqual(rows[0], { ...rows[0], created: 1, closed: 1, support_updates: 2 });
      // 30 orgs created tickets: fewer than the 50 the list holds, so orgs with only open tickets of
      // other periods or none at all do not enter, and the list is the 30.
      const few = await account(h, (i) => (i < 30 ? { created: 1 + (i % 4), closed: i % 2, logs: 1 } : { created: 0, closed: 0, logs: 0 }));
      const fewRows = await sameAsRecords(few.key);
      assert.equal(fewRows.length, 30);
      assert.deepEqual(
        fewRows.slice(0, 3).map((r) => r.created),
        [4, 4, 4],
      );
    });
  });
}
