import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle, type Executor } from '../../src/db/database.ts';
import { NAMED_AFTER, RANGES_OF_NOW } from '../../src/db/pg-statement-names.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { listDeals } from '../../src/modules/deals/deals.service.ts';
import { listOrgs } from '../../src/modules/orgs/orgs.service.ts';
import * as dispatch from '../../src/modules/webhooks/dispatch.postgres.ts';
import { seedAccount } from '../../src/seed/seed.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// PostgreSQL runs SQL texts that come again and again as named statements, planned once per
// connection when the server finds that one plan serves every value (src/db/pg-statement-names.ts,
// docs/design.md#named-statements-on-postgresql). What the server did is read from
// pg_prepared_statements of the one connection the handle has.

interface Prepared {
  name: string;
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

describe('named statements on PostgreSQL', { skip: !engines().includes('postgres') }, () => {
  let t: TestDatabase;
  let one: DatabaseHandle;
  let accountId: number;
  const prepared = async () => (await sql<Prepared>`select name, statement, generic_plans, custom_plans from pg_prepared_statements`.execute(one.db)).rows;

  before(async () => {
    t = await createTestDatabase('postgres');
    one = openDatabase(t.url, { poolSize: 1 });
    const { account } = await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Named' });
    accountId = account.id;
    await seedAccount(t.handle, systemClock, { accountId, deals: 400, seed: 9 });
  });
  after(async () => {
    await one?.close();
    await t?.drop();
  });

  test("an org's deals: the count and the first page are named and planned once, and answer as a plain read", async () => {
    const org = await one.db
      .selectFrom('deals')
      .select((eb) => ['org_id', eb.fn.countAll<number>().as('n')])
      .where('account_id', '=', accountId)
      .groupBy('org_id')
      .orderBy('n', 'desc')
      .executeTakeFirstOrThrow();
    const ids = (
      await one.db
        .selectFrom('deals')
        .select('id')
        .where('account_id', '=', accountId)
        .where('org_id', '=', org.org_id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((d) => Number(d.id));
    assert.ok(ids.length > 10, `the seed gave the org ${ids.length} deals`);
    for (let i = 0; i < 10; i++) {
      const page = await listDeals(one.db, accountId, { org_id: Number(org.org_id) }, { page: 1, per_page: 10 });
      assert.equal(page.pagination.total, ids.length);
      assert.deepEqual(
        page.data.map((d) => d.id),
        ids.slice(0, 10),
      );
    }
    const second = await listDeals(one.db, accountId, { org_id: Number(org.org_id) }, { page: 2, per_page: 10 });
    assert.deepEqual(
      second.data.map((d) => d.id),
      ids.slice(10, 20),
    );
    const rows = await prepared();
    const count = rows.filter((r) => /count\(\*\)/.test(r.statement) && r.statement.includes('"deals"."org_id" = $2'));
    const page = rows.filter((r) => r.statement.includes('"deals"."org_id" = $2') && /\blimit 10\b/.test(r.statement) && !/\boffset\b/.test(r.statement));
    assert.equal(count.length, 1, JSON.stringify(rows.map((r) => r.statement)));
    assert.equal(page.length, 1, JSON.stringify(rows.map((r) => r.statement)));
    // Five custom plans, then the generic one kept: ten runs named after NAMED_AFTER leave at least two.
    for (const r of [...count, ...page]) assert.ok(Number(r.generic_plans) >= 2, JSON.stringify(r));
    // The page's whole rows are read by listed columns, never `*`.
    assert.doesNotMatch(page[0].statement, /\*\s+from/);
    // A page further in binds its offset and keeps a plan per execution: never named.
    assert.deepEqual(
      rows.filter((r) => /\boffset\b/i.test(r.statement)),
      [],
    );
  });

  test('a search term, a whole-row read and a range stay unnamed', async () => {
    for (let i = 0; i < NAMED_AFTER + 3; i++) {
      await listDeals(one.db, accountId, { q: 'pilot' }, { page: 1, per_page: 10 });
      await listOrgs(one.db, accountId, { q: 'ac' }, { page: 1, per_page: 10 });
      await sql`select * from "deals" where "account_id" = ${accountId} and "id" = ${1}`.execute(one.db);
      await sql`select count(*) from "deals" where "account_id" = ${accountId} and "created_at" >= ${0}`.execute(one.db);
    }
    const rows = await prepared();
    assert.deepEqual(
      rows.filter((r) => /\blike\b/i.test(r.statement) || /select \*/.test(r.statement) || /"created_at" >= \$2/.test(r.statement)),
      [],
    );
  });

  test("the dispatcher's statements are named, and the plan kept for each reaches deliveries and events through an index", async () => {
    // A long history of sent deliveries, a few not yet due: a plan that guessed a third of the table
    // due (the estimate of a range whose value it does not know) would find "nothing due" by a scan.
    // At this size the fan-out's check written as `not exists (…)` gets that plan (checked: the test
    // then fails); at 20,000 rows the server still picks the index for it.
    const now = Date.now();
    const endpoints = (
      await sql<{ id: number }>`
        insert into webhook_endpoints (account_id, name, url, event_types, secret_encrypted, created_at, updated_at)
        select ${accountId}, 'plan ' || g, 'https://plan.example/' || g, '["deal.created"]', 'sealed', ${now}, ${now}
        from generate_series(1, 3) g returning id`.execute(one.db)
    ).rows.map((r) => Number(r.id));
    const [first] = (await sql<{ id: number }>`select coalesce(max(id), 0) + 1 as id from events`.execute(one.db)).rows;
    await sql`
      insert into events (account_id, public_id, event_type, org_id, payload, created_at, dispatched_at)
      select ${accountId}, 'evt_plan_' || g, 'deal.created', (select min(id) from orgs where account_id = ${accountId}), '{}', ${now}::bigint - g, ${now}::bigint - g from generate_series(1, 60000) g`.execute(
      one.db,
    );
    await sql`
      insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at, last_attempt_at)
      select e.account_id, ${endpoints[0]}::bigint + e.id % 3, e.id, e.event_type,
        case when e.id % 400 = 0 then 'pending' else 'sent' end, 1,
        case when e.id % 400 = 0 then ${now + 3_600_000}::bigint end, e.created_at, e.created_at
      from events e where e.id >= ${Number(first.id)}`.execute(one.db);
    await sql`analyze webhook_deliveries`.execute(one.db);
    await sql`analyze events`.execute(one.db);
    try {
      for (let i = 0; i < NAMED_AFTER + 1; i++) {
        const held = new Map([[endpoints[0], 1]]);
        assert.equal((await dispatch.fanOut(one.db, now, 100, { lockedUntil: now + 60_000, room: 10, perEndpoint: 5, held })).events, 0);
        assert.deepEqual((await dispatch.claimHead(one.db, now, now + 60_000, { headLimit: 10, room: 10, perEndpoint: 5, held })).claimed, []);
        assert.deepEqual(await dispatch.claimFromEndpoint(one.db, endpoints[1], now, now + 60_000, 5), []);
        const sent = { accountId, previousAttempts: 0, trigger: 'scheduled' as const, statusCode: 200, responseBody: null, durationMs: 1, requestedAt: now };
        assert.equal((await dispatch.recordSent(one.db, [{ deliveryId: 0, ...sent }])).size, 0);
      }
      const statements = (await prepared()).filter((r) => /\bwebhook_deliveries\b/.test(r.statement));
      const marked = statements.filter((r) => r.statement.includes(RANGES_OF_NOW));
      // The fan-out and the head's claim; the claim from one endpoint keeps a plan per run.
      assert.equal(marked.length, 2, JSON.stringify(statements.map((r) => r.statement.slice(0, 60))));
      assert.equal(statements.filter((r) => r.statement.includes('where d.endpoint_id = $1')).length, 0);
      assert.equal(statements.filter((r) => r.statement.includes('insert into webhook_attempts')).length, 1);
      // The plan the server would keep for each, whatever the values: no scan of a growing table.
      await sql`set plan_cache_mode = force_generic_plan`.execute(one.db);
      let claimsChecked = 0;
      try {
        for (const r of statements) {
          const params = (await sql<{ n: number }>`select cardinality(parameter_types) as n from pg_prepared_statements where name = ${r.name}`.execute(one.db))
            .rows[0].n;
          const nulls = Array.from({ length: Number(params) }, () => 'null').join(', ');
          const [{ 'QUERY PLAN': plan }] = (
            await sql<{ 'QUERY PLAN': unknown }>`explain (format json) execute ${sql.raw(`${r.name}(${nulls})`)}`.execute(one.db)
          ).rows;
          const scans: string[] = [];
          const walk = (node: { 'Node Type'?: string; 'Relation Name'?: string; Plans?: unknown[] }) => {
            if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] !== 'webhook_endpoints') scans.push(node['Relation Name'] ?? '?');
            for (const child of node.Plans ?? []) walk(child as typeof node);
          };
          walk((plan as [{ Plan: Parameters<typeof walk>[0] }])[0].Plan);
          assert.deepEqual(scans, [], r.statement);
          // The head's claim takes the due rows in their order from the index (`next_attempt_at, id`): a
          // sort would read every row due at the same moment (a fan-out's whole batch) for each claim.
          if (r.statement.includes('with head as')) {
            // (Sorts of the head's own rows, at most its limit, are fine: the window and the chosen rows.)
            type PlanNode = { 'Node Type'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };
            const reads = (node: PlanNode): boolean => node['Relation Name'] === 'webhook_deliveries' || (node.Plans ?? []).some(reads);
            const sorts: string[] = [];
            const walkSorts = (node: PlanNode) => {
              if (/Sort/.test(node['Node Type'] ?? '') && reads(node)) sorts.push(node['Node Type']!);
              for (const child of node.Plans ?? []) walkSorts(child);
            };
            walkSorts((plan as [{ Plan: PlanNode }])[0].Plan);
            assert.deepEqual(sorts, [], r.statement);
            claimsChecked++;
          }
        }
        assert.equal(claimsChecked, 1);
      } finally {
        await sql`reset plan_cache_mode`.execute(one.db);
      }
    } finally {
      await sql`delete from webhook_endpoints where id in (${sql.join(endpoints)})`.execute(one.db);
      await sql`delete from events where id >= ${Number(first.id)}`.execute(one.db);
    }
  });

  test('a named read whose column changes type runs again unnamed; inside a transaction it fails once, then runs unnamed', async () => {
    await sql`create table named_stale (id bigint primary key, account_id bigint not null, v int)`.execute(one.db);
    try {
      await sql`insert into named_stale (id, account_id, v) values (1, 7, 10), (2, 7, 20)`.execute(one.db);
      const outside = async () =>
        (await sql<{ id: number; v: unknown }>`select "id", "v" from "named_stale" where "account_id" = ${7} order by "id"`.execute(one.db)).rows;
      // Another text, for the transaction's case.
      const inside = (db: Executor) =>
        sql<{ id: number; v: unknown }>`select "id", "v" from "named_stale" where "account_id" = ${7} and "id" <> ${0} order by "id"`.execute(db);
      for (let i = 0; i < NAMED_AFTER + 1; i++) {
        assert.deepEqual(await outside(), [
          { id: 1, v: 10 },
          { id: 2, v: 20 },
        ]);
        assert.deepEqual((await inside(one.db)).rows, [
          { id: 1, v: 10 },
          { id: 2, v: 20 },
        ]);
      }
      assert.equal((await prepared()).filter((r) => r.statement.includes('"named_stale"')).length, 2);
      // The server now refuses both named statements ("cached plan must not change result type").
      await sql`alter table named_stale alter column v type text`.execute(one.db);
      // Outside a transaction the read runs again, unnamed, with the new type.
      assert.deepEqual(await outside(), [
        { id: 1, v: '10' },
        { id: 2, v: '20' },
      ]);
      // Inside one, the refusal fails the transaction (it is aborted), as any error would.
      await assert.rejects(
        one.db.transaction().execute(async (trx) => inside(trx)),
        /cached plan must not change result type/,
      );
      // From then on the text runs unnamed on this connection, in a transaction or not.
      await one.db.transaction().execute(async (trx) =>
        assert.deepEqual((await inside(trx)).rows, [
          { id: 1, v: '10' },
          { id: 2, v: '20' },
        ]),
      );
      assert.deepEqual((await inside(one.db)).rows, [
        { id: 1, v: '10' },
        { id: 2, v: '20' },
      ]);
    } finally {
      await sql`drop table named_stale`.execute(one.db);
    }
  });

  test('a named read of listed columns goes on working after a migration adds a column', async () => {
    await sql`create table named_probe (id bigint primary key, account_id bigint not null, v text)`.execute(one.db);
    try {
      await sql`insert into named_probe (id, account_id, v) values (1, 7, 'a'), (2, 7, 'b')`.execute(one.db);
      const read = async () =>
        (await sql<{ id: number; v: string }>`select "id", "v" from "named_probe" where "account_id" = ${7} order by "id"`.execute(one.db)).rows;
      for (let i = 0; i < NAMED_AFTER + 1; i++)
        assert.deepEqual(await read(), [
          { id: 1, v: 'a' },
          { id: 2, v: 'b' },
        ]);
      assert.equal((await prepared()).filter((r) => r.statement.includes('"named_probe"')).length, 1);
      await sql`alter table named_probe add column w text default 'x'`.execute(one.db);
      assert.deepEqual(await read(), [
        { id: 1, v: 'a' },
        { id: 2, v: 'b' },
      ]);
    } finally {
      await sql`drop table named_probe`.execute(one.db);
    }
  });
});
