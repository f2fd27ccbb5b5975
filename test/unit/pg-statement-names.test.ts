import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAMED_AFTER, nameable, RANGES_OF_NOW, StatementNames } from '../../src/db/pg-statement-names.ts';
import { inList } from '../../src/lib/sql.ts';

// Which SQL texts run as named statements on PostgreSQL (src/db/pg-statement-names.ts); the system
// test (test/system/named-statements.test.ts) checks what the server then does with them.

describe('SQL texts that may be named', () => {
  test('reads and writes whose plan fits every value', () => {
    for (const text of [
      'select "id" from "orgs" where "account_id" = $1 and "id" = $2',
      'select count(*) as "n" from "deals" where "deals"."account_id" = $1 and "deals"."org_id" = $2',
      'select "id", "title" from "deals" where "deals"."id" in (select "deals"."id" from "deals" where "account_id" = $1 order by "created_at" desc limit 25)',
      'select "e"."id", "o"."name" as "org_name" from "support_logs" as "e" inner join "orgs" as "o" on "o"."id" = "e"."org_id" where "e"."id" in ($1, $2, $3, $4)',
      'insert into "deal_activities" ("account_id", "message") values ($1, $2) returning "id", "message"',
      'update "deals" set "status" = $1 where "account_id" = $2 and "id" = $3 returning "id"',
      'delete from "console_sessions" where "id" = $1',
      'with x as (select "id" from "deals" where "account_id" = $1) select count(*) from x',
      '  SELECT "id" FROM "users" WHERE "status" <> $1',
      'select "id" from "deals" where "metadata"->>\'k\' = $1 and "tags" @> $2',
      'select "id" from "orgs" where "account_id" = $1 and "id" in ($2)',
      'select "id" from "orgs" where "account_id" = $1 and "id" in ($2, $3, $4, $5)',
      'select "id" from "orgs" where "id" in ($1, $2, $3, $4, $5, $6, $7, $8) and "account_id" = $9',
    ]) {
      assert.equal(nameable(text), true, text);
    }
  });

  test('texts whose best plan depends on the values, or whose result could change shape, are not', () => {
    for (const text of [
      // A search term: common, rare and one-letter terms want different plans.
      'select count(*) as "n" from "deals" where "account_id" = $1 and "title_lc" like $2 escape $3',
      'select "id" from "orgs" where "name_lc" LIKE $1',
      // Ranges: a day and a year want different plans.
      'select count(*) from "deals" where "account_id" = $1 and "created_at" >= $2',
      'select count(*) from "deals" where "account_id" = $1 and "created_at" < $2',
      'select count(*) from "deals" where "account_id" = $1 and $2 <= "created_at"',
      'select count(*) from "deals" where "account_id" = $1 and $2::bigint > "created_at"',
      'select count(*) from "deals" where "created_at" between $1 and $2',
      'select count(*) from "deals" where "created_at" >$1',
      'select count(*) from "deals" where "created_at" >= cast($1 as bigint)',
      'select count(*) from "deals" where "created_at" > ($1)',
      'select count(*) from "deals" where $1 + 5 > "created_at"',
      'select "id" from "orgs" where "name_lc" ilike $1',
      'select "id" from "orgs" where "name_lc" similar to $1',
      'select "id" from "orgs" where "name_lc" ~ $1',
      // A deep page has its own plan.
      'select "id" from "deals" where "account_id" = $1 order by "id" limit $2 offset $3',
      // A list whose length changes would make a text per length: only padded lengths (inList).
      'select "id" from "orgs" where "id" in ($1, $2)',
      'select "id" from "orgs" where "id" in ($1, $2, $3)',
      'select "id" from "orgs" where "id" in ($1, $2, $3, $4, $5)',
      // A whole-row result: a column added by a migration would make the server refuse it.
      'select * from "orgs" where "account_id" = $1',
      'select "deals".* from "deals" where "id" = $1',
      'select "d".*, "e"."public_id" from "webhook_deliveries" as "d" where "d"."id" = $1',
      'select claimed.*, stats.n from stats left join claimed on true where stats.n = $1',
      'insert into "orgs" ("name") values ($1) returning *',
      // Not one data statement.
      'begin',
      'set local statement_timeout = 1000',
      'select 1; select 2',
      'create index x on y (z)',
    ]) {
      assert.equal(nameable(text), false, text);
    }
  });

  test('a text marked as ranging over the present moment may be named with its ranges, never with a pattern, an offset or a whole row', () => {
    const due = 'select "id" from "webhook_deliveries" where "next_attempt_at" <= $1 and ("locked_until" is null or "locked_until" <= $2)';
    assert.equal(nameable(due), false);
    assert.equal(nameable(`${due} ${RANGES_OF_NOW}`), true);
    assert.equal(nameable(`${due} order by "next_attempt_at" limit 1 ${RANGES_OF_NOW}`), true);
    for (const text of [
      `${due} and "url" like $3 ${RANGES_OF_NOW}`,
      `${due} order by "id" limit 10 offset $3 ${RANGES_OF_NOW}`,
      `select * from "webhook_deliveries" where "next_attempt_at" <= $1 ${RANGES_OF_NOW}`,
      `${due}; select 1 ${RANGES_OF_NOW}`,
    ]) {
      assert.equal(nameable(text), false, text);
    }
  });

  test('count(*) and a multiplication are not a whole-row result', () => {
    assert.equal(nameable('select count(*) as "n" from "deals" where "account_id" = $1'), true);
    assert.equal(nameable('select "value_cents" * $1 from "deals" where "id" = $2'), true);
  });
});

describe('StatementNames', () => {
  const text = 'select "id" from "orgs" where "account_id" = $1 and "id" = $2';

  test('a text is named once it has run NAMED_AFTER times, then keeps its name', () => {
    const names = new StatementNames();
    for (let i = 1; i < NAMED_AFTER; i++) assert.equal(names.nameFor(text), undefined, `run ${i}`);
    const name = names.nameFor(text);
    assert.match(name ?? '', /^custops_s\d+$/);
    assert.equal(names.nameFor(text), name);
    assert.equal(names.size, 1);
  });

  test('different texts get different names; a text that may not be named never is', () => {
    const names = new StatementNames();
    const other = 'select "id" from "users" where "account_id" = $1 and "id" = $2';
    const ranged = 'select count(*) from "deals" where "account_id" = $1 and "created_at" >= $2';
    for (let i = 0; i < NAMED_AFTER + 5; i++) {
      names.nameFor(text);
      names.nameFor(other);
      assert.equal(names.nameFor(ranged), undefined);
    }
    assert.notEqual(names.nameFor(text), names.nameFor(other));
    assert.equal(names.size, 2);
  });

  test('at most the cap of texts are named; later ones run unnamed, the named ones keep their names', () => {
    const names = new StatementNames(3);
    const texts = Array.from({ length: 5 }, (_, i) => `select "id" from "t${i}" where "id" = $1`);
    for (let round = 0; round < NAMED_AFTER; round++) for (const t of texts) names.nameFor(t);
    assert.deepEqual(
      texts.map((t) => names.nameFor(t) !== undefined),
      [true, true, true, false, false],
    );
    assert.equal(names.size, 3);
  });
});

describe('inList', () => {
  test('pads a list to 1, 4, 8, 16… values with its last one, keeping its values and their order', () => {
    assert.deepEqual(inList([]), []);
    assert.deepEqual(inList([7]), [7]);
    assert.deepEqual(inList([7, 8]), [7, 8, 8, 8]);
    assert.deepEqual(inList([1, 2, 3, 4]), [1, 2, 3, 4]);
    assert.deepEqual(inList([1, 2, 3, 4, 5]), [1, 2, 3, 4, 5, 5, 5, 5]);
    for (let n = 1; n <= 130; n++) {
      const values = Array.from({ length: n }, (_, i) => i);
      const padded = inList(values);
      assert.deepEqual(padded.slice(0, n), values);
      assert.ok(padded.length === 1 || (padded.length >= 4 && (padded.length & (padded.length - 1)) === 0), `${n} → ${padded.length}`);
      assert.ok(padded.length < 2 * n || padded.length === 4, `${n} → ${padded.length}`);
      assert.deepEqual(new Set(padded), new Set(values));
      // A padded list is one PostgreSQL may name.
      const text = `select "id" from "orgs" where "id" in (${padded.map((_, i) => `$${i + 1}`).join(', ')})`;
      assert.equal(nameable(text), true, text);
    }
  });
});
