import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';

/** The benchmark's fixed "now": every preset is measured at this instant. */
export const BENCH_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const DAY = 86_400_000;
const SPAN = 4 * 365 * DAY; // four years of history up to BENCH_NOW
const T0 = BENCH_NOW - SPAN;

export const SIZES = { users: 50, orgs: 10_000, deals: 1_000_000, activities: 3_000_000, tickets: 300_000, logs: 600_000 };

/**
 * Rows 1..n as `s.i` (bigint): a recursive CTE on SQLite, generate_series on PostgreSQL. The
 * row expressions that use it are the same SQL on both engines, so both hold the same data.
 */
function series(h: DatabaseHandle, n: number): { prefix: string; from: string } {
  return h.dialect === 'sqlite'
    ? { prefix: `with recursive g(i) as (select 1 union all select i + 1 from g where i < ${n})`, from: '(select cast(i as bigint) as i from g) s' }
    : { prefix: '', from: `(select cast(i as bigint) as i from generate_series(1, ${n}) as g(i)) s` };
}

/** `min(expr, BENCH_NOW - 1)` written portably (SQLite's min() is PostgreSQL's least()). */
const capped = (expr: string) => `case when ${expr} < ${BENCH_NOW} then ${expr} else ${BENCH_NOW - 1} end`;

async function exec(h: DatabaseHandle, text: string): Promise<void> {
  await sql.raw(text).execute(h.db);
}

/**
 * One account with 50 users, 10,000 orgs, 1,000,000 deals (about 2.4 status-history rows
 * each), 3,000,000 activities, 300,000 tickets and 600,000 support logs over four years, made
 * by set-based INSERT … SELECT inside the database (no rows cross the driver), then analyzed.
 */
export async function generate(h: DatabaseHandle, log: (s: string) => void): Promise<{ accountId: number }> {
  const db = h.db;
  const acc = await db.insertInto('accounts').values({ name: 'Bench', created_at: T0 }).returning('id').executeTakeFirstOrThrow();
  const A = Number(acc.id);
  const step = (n: number) => Math.floor(SPAN / n);
  const run = async (label: string, n: number, body: (from: string) => string) => {
    const started = performance.now();
    const s = series(h, n);
    await exec(h, `${s.prefix} ${body(s.from)}`);
    log(`  ${label}: ${n.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await run(
    'users',
    SIZES.users,
    (from) => `insert into users (account_id, email, email_lc, display_name, role, is_active, support_enabled, password_hash, created_at, updated_at)
    select ${A}, 'rep' || i || '@bench.test', 'rep' || i || '@bench.test', 'Rep ' || i, 'member', ${h.dialect === 'sqlite' ? 1 : 'true'}, ${h.dialect === 'sqlite' ? 1 : 'true'}, null, ${T0}, ${T0} from ${from}`,
  );
  const u0 =
    Number(
      (
        await db
          .selectFrom('users')
          .select((e) => e.fn.min('id').as('m'))
          .where('account_id', '=', A)
          .executeTakeFirstOrThrow()
      ).m,
    ) - 1;
  await run(
    'orgs',
    SIZES.orgs,
    (from) => `insert into orgs (account_id, name, name_lc, domain, created_at, updated_at)
    select ${A}, 'Org ' || i, 'org ' || i, null, ${T0}, ${T0} from ${from}`,
  );
  const o0 =
    Number(
      (
        await db
          .selectFrom('orgs')
          .select((e) => e.fn.min('id').as('m'))
          .where('account_id', '=', A)
          .executeTakeFirstOrThrow()
      ).m,
    ) - 1;

  const created = `(${T0} + i * ${step(SIZES.deals)})`;
  const h100 = `((i * 2654435761) % 100)`;
  // Old deals are mostly closed (90 %), the last 90 days' mostly open (60 %).
  const status = `case when ${created} < ${BENCH_NOW - 90 * DAY}
      then case when ${h100} < 45 then 'won' when ${h100} < 90 then 'lost' when ${h100} < 93 then 'new' when ${h100} < 96 then 'qualified' when ${h100} < 98 then 'proposal' else 'negotiation' end
      else case when ${h100} < 20 then 'won' when ${h100} < 40 then 'lost' when ${h100} < 60 then 'new' when ${h100} < 75 then 'qualified' when ${h100} < 90 then 'proposal' else 'negotiation' end end`;
  await run(
    'deals',
    SIZES.deals,
    (from) => `insert into deals (account_id, org_id, contact_id, owner_user_id, title, title_lc, status, value_cents, currency,
      payment_customer_id, next_followup_at, lost_reason_code, lost_reason_label, closed_at, closed_by_user_id, last_activity_at, created_at, updated_at)
    select ${A}, org_id, null, owner, 'Deal ' || i, 'deal ' || i, status, (i * 7907) % 1000000, case when i % 3 = 0 then 'EUR' else 'USD' end,
      null, case when status in ('won', 'lost') then null else created + (i % 40) * ${DAY} end,
      case when status = 'lost' then case i % 4 when 0 then 'price' when 1 then 'timing' when 2 then 'competitor' else 'no_budget' end end,
      case when status = 'lost' then case i % 4 when 0 then 'Price' when 1 then 'Timing' when 2 then 'Competitor' else 'No budget' end end,
      case when status in ('won', 'lost') then ${capped(`created + ((i * 37) % 60) * ${DAY}`)} end,
      case when status in ('won', 'lost') then owner end,
      ${capped(`created + (i % 20) * ${DAY}`)}, created, created
    from (select i, ${created} as created, ${o0} + 1 + (i * 7919) % ${SIZES.orgs} as org_id,
      case when i % 20 = 0 then null else ${u0} + 1 + (i * 31) % ${SIZES.users} end as owner, ${status} as status from ${from}) d`,
  );
  const d0 =
    Number(
      (
        await db
          .selectFrom('deals')
          .select((e) => e.fn.min('id').as('m'))
          .where('account_id', '=', A)
          .executeTakeFirstOrThrow()
      ).m,
    ) - 1;

  const t = performance.now();
  await exec(
    h,
    `insert into deal_status_history (account_id, deal_id, from_status, to_status, changed_by_user_id, changed_at)
    select account_id, id, null, 'new', owner_user_id, created_at from deals where account_id = ${A}`,
  );
  await exec(
    h,
    `insert into deal_status_history (account_id, deal_id, from_status, to_status, changed_by_user_id, changed_at)
    select account_id, id, 'new', 'qualified', owner_user_id, ${capped(`created_at + ${DAY}`)} from deals where account_id = ${A} and id % 2 = 0`,
  );
  await exec(
    h,
    `insert into deal_status_history (account_id, deal_id, from_status, to_status, changed_by_user_id, changed_at)
    select account_id, id, case when id % 2 = 0 then 'qualified' else 'new' end, status, owner_user_id, coalesce(closed_at, ${capped(`created_at + 2 * ${DAY}`)})
    from deals where account_id = ${A} and status not in ('new', 'qualified')`,
  );
  log(`  deal_status_history: ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Activities belong to deal (j % deals) + 1 and follow its creation by up to 30 days.
  const dealOf = `((i % ${SIZES.deals}) + 1)`;
  await run(
    'deal_activities',
    SIZES.activities,
    (
      from,
    ) => `insert into deal_activities (account_id, deal_id, org_id, event_type, message, outcome, source_app, external_reference, metadata, user_id, created_at)
    select ${A}, ${d0} + ${dealOf}, ${o0} + 1 + (${dealOf} * 7919) % ${SIZES.orgs},
      case i % 4 when 0 then 'note' when 1 then 'email' when 2 then 'call' else 'meeting' end, 'Bench activity', null, null, null, null,
      case when i % 10 = 0 then null else ${u0} + 1 + (i * 17) % ${SIZES.users} end,
      ${capped(`${T0} + ${dealOf} * ${step(SIZES.deals)} + ((i * 13) % 30) * ${DAY}`)} from ${from}`,
  );

  const tCreated = `(${T0} + i * ${step(SIZES.tickets)})`;
  await run(
    'tickets',
    SIZES.tickets,
    (
      from,
    ) => `insert into tickets (account_id, org_id, contact_id, owner_user_id, title, title_lc, details, status, channel, external_reference, metadata, source_app, created_at, updated_at, closed_at)
    select ${A}, ${o0} + 1 + (i * 7919) % ${SIZES.orgs}, null, case when i % 10 = 0 then null else ${u0} + 1 + (i * 13) % ${SIZES.users} end,
      'Ticket ' || i, 'ticket ' || i, 'details', status, 'api', null, null, null, created, created,
      case when status = 'closed' then ${capped(`created + (i % 10) * ${DAY}`)} end
    from (select i, ${tCreated} as created,
      case when ${tCreated} < ${BENCH_NOW - 30 * DAY} then case when i % 20 = 0 then 'open' else 'closed' end
        else case i % 3 when 0 then 'open' when 1 then 'pending' else 'closed' end end as status from ${from}) t`,
  );
  const t0 =
    Number(
      (
        await db
          .selectFrom('tickets')
          .select((e) => e.fn.min('id').as('m'))
          .where('account_id', '=', A)
          .executeTakeFirstOrThrow()
      ).m,
    ) - 1;
  const ticketOf = `((i % ${SIZES.tickets}) + 1)`;
  await run(
    'support_logs',
    SIZES.logs,
    (from) => `insert into support_logs (account_id, ticket_id, org_id, note, channel, author_user_id, created_at)
    select ${A}, ${t0} + ${ticketOf}, ${o0} + 1 + (${ticketOf} * 7919) % ${SIZES.orgs}, 'note', 'api',
      case when i % 8 = 0 then null else ${u0} + 1 + (i * 11) % ${SIZES.users} end,
      ${capped(`${T0} + ${ticketOf} * ${step(SIZES.tickets)} + ((i * 7) % 5) * ${DAY}`)} from ${from}`,
  );

  const a = performance.now();
  await exec(h, h.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze users, orgs, deals, deal_status_history, deal_activities, tickets, support_logs');
  log(`  analyze: ${((performance.now() - a) / 1000).toFixed(1)} s`);
  return { accountId: A };
}
