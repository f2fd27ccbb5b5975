// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { monthStart, yearStart } from './shared-2026-11-28-day-starts.ts';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * PostgreSQL: the counter triggers' statements (analytics rollups, their levels and kept figures,
 * the kept list counts) cost the server more to start than to run. Profiled (`perf`) while status
 * changes committed, over half of the backend's time was the deferred counter triggers, and most
 * of that was executor start-up: each statement is `insert … select <values> where <condition>`,
 * and a condition that does not hold (a won-deal count for a deal that is not won) is only found
 * false after the statement's plan has been set up, including the nested sub-selects that compute
 * a month's or a year's first day. A status change ran about forty such statements at its commit.
 *
 * Rewritten here, in each trigger function's own text, and only in form:
 * - a month's and a year's first day are calls of `custops_month_start(day)` and
 *   `custops_year_start(day)`, PL/pgSQL functions doing the same integer arithmetic as the
 *   sub-selects (H. Hinnant's civil-from-days), instead of the sub-selects;
 * - each counting statement runs inside an `if` of its condition, so a statement whose condition
 *   does not hold is not started at all.
 *
 * The functions rewritten are the counter triggers of 2026-11-27T1900_rollups_at_commit (their
 * deferral to the commit is the trigger's, not the function's, and stays). The statements of
 * the deal's funnel count (which read the status history) are left as they are. The rewrite
 * refuses to run on text it does not recognise: every `insert` of a counter function must be
 * rewritten, bar those two. SQLite compiles a trigger's statements with the statement that fires
 * it: nothing to change there.
 */
const FUNCTIONS =
  /^(analytics_(levels_|kept_)?(deals|deal_activities|tickets|support_logs)_(ai|au|ad)|list_counts_(deals|tickets)_(ai|au|ad)|list_counts_(orgs|contacts)_(ai|ad))$/;
/** The funnel count in `analytics_deals_au` (2026-11-28T0300_daily_rollup_moves): left as it is. */
const FUNNEL_STATEMENTS = 2;

/** The same arithmetic, step by step, as functions. */
const HELPERS = [
  `create function custops_month_start(d bigint) returns bigint language plpgsql immutable parallel safe as $fn$
declare doe bigint := (d + 719468) - ((d + 719468) / 146097) * 146097; yoe bigint; doy bigint;
begin
  yoe := (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  doy := doe - (365 * yoe + yoe / 4 - yoe / 100);
  return d - (doy - (153 * ((5 * doy + 2) / 153) + 2) / 5);
end $fn$`,
  `create function custops_year_start(d bigint) returns bigint language plpgsql immutable parallel safe as $fn$
declare z bigint := d + 719468; era bigint; doe bigint; yoe bigint; doy bigint; yp bigint; yoe2 bigint; era2 bigint;
begin
  era := z / 146097;
  doe := z - era * 146097;
  yoe := (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  doy := doe - (365 * yoe + yoe / 4 - yoe / 100);
  yp := yoe + era * 400 + (case when (5 * doy + 2) / 153 >= 10 then 1 else 0 end) - 1;
  yoe2 := yp - (yp / 400) * 400;
  era2 := yp / 400;
  return era2 * 146097 + yoe2 * 365 + yoe2 / 4 - yoe2 / 100 + 306 - 719468;
end $fn$`,
];

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A sub-select of `template` around a day `old.<column> / 86400000` or `new.<column> / 86400000`. */
const subselect = (template: (d: string) => string) =>
  new RegExp(template('\u0000').split('\u0000').map(literal).join('((?:old|new)\\.[a-z_]+ / 86400000)'), 'g');
const MONTH = subselect(monthStart);
const YEAR = subselect(yearStart);
const CALL = /custops_(month|year)_start\(((?:old|new)\.[a-z_]+ \/ 86400000)\)/g;

/** A counting statement: one row of values (no sub-select, no FROM) and a condition (no sub-select). */
const COUNTING =
  /insert into (\w+) \(([^)]*)\)\s+select ((?:(?!\bselect\b|\bfrom\b|\bwhere\b).)*?)\s+where ((?:(?!\bselect\b).)*?) (on conflict \([^)]*\) do update set [^;]*);/gs;
/** The same statement inside its `if`, as the rewrite writes it. */
const GUARDED =
  /if \(((?:(?!\bthen\b).)*?)\) then insert into (\w+) \(([^)]*)\) select ((?:(?!\bselect\b|\bfrom\b|\bwhere\b).)*?) (on conflict \([^)]*\) do update set [^;]*); end if;/gs;

/** The rewrite of one function's text, and how many statements it rewrote. */
function rewrite(text: string): { text: string; statements: number } {
  let statements = 0;
  const out = text
    .replace(MONTH, (_m, day: string) => `custops_month_start(${day})`)
    .replace(YEAR, (_m, day: string) => `custops_year_start(${day})`)
    .replace(COUNTING, (_m, table: string, columns: string, values: string, condition: string, conflict: string) => {
      statements++;
      return `if (${condition}) then insert into ${table} (${columns}) select ${values} ${conflict}; end if;`;
    });
  return { text: out, statements };
}

/** Back to the statements as their migrations wrote them (the same statements; spacing aside). */
function restore(text: string): string {
  return text
    .replace(
      GUARDED,
      (_m, condition: string, table: string, columns: string, values: string, conflict: string) =>
        `insert into ${table} (${columns})\n      select ${values}\n      where ${condition} ${conflict};`,
    )
    .replace(CALL, (_m, unit: string, day: string) => (unit === 'month' ? monthStart(day) : yearStart(day)));
}

/** The counter trigger functions of the current schema, with their text. */
async function counters(db: AnyDb): Promise<{ name: string; text: string }[]> {
  const rows = await sql<{ proname: string; prosrc: string }>`select proname, prosrc from pg_proc
    where pronamespace = current_schema()::regnamespace and prorettype = 'trigger'::regtype order by proname`.execute(db);
  return rows.rows.filter((r) => FUNCTIONS.test(r.proname)).map((r) => ({ name: r.proname, text: r.prosrc }));
}

async function replace(db: AnyDb, name: string, text: string): Promise<void> {
  await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $body$${text}$body$`).execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  const functions = await counters(db);
  const rewrites = functions.map((f) => ({ name: f.name, inserts: f.text.match(/\binsert into\b/g)?.length ?? 0, ...rewrite(f.text) }));
  const inserts = rewrites.reduce((n, r) => n + r.inserts, 0);
  const rewritten = rewrites.reduce((n, r) => n + r.statements, 0);
  // Checked before anything is written (the migration's transaction would undo it all the same).
  if (functions.length !== 40 || rewritten !== inserts - FUNNEL_STATEMENTS) {
    throw new Error(`counter triggers not as expected: ${functions.length} functions (40 expected), ${rewritten} of ${inserts} statements rewritten`);
  }
  for (const helper of HELPERS) await sql.raw(helper).execute(db);
  for (const r of rewrites) await replace(db, r.name, r.text);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const f of await counters(db)) await replace(db, f.name, restore(f.text));
  await sql.raw('drop function custops_year_start(bigint)').execute(db);
  await sql.raw('drop function custops_month_start(bigint)').execute(db);
}
