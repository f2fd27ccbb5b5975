import { sql } from 'kysely';
import type { DealStatus } from '../../src/db/schema.ts';
import type { Harness } from '../helpers/harness.ts';
import { userRow } from '../helpers/user-row.ts';

/** Direct inserts for the deals suites: reads are tested on rows the write routes did not make. */
export async function seedOrg(h: Harness, accountId: number, name = 'Acme'): Promise<number> {
  const now = Date.now();
  const r = await h.db
    .insertInto('orgs')
    .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

let userN = 0;
export async function seedUser(h: Harness, accountId: number): Promise<number> {
  const email = `rep${++userN}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const r = await h.db
    .insertInto('users')
    .values(userRow({ accountId, email, displayName: 'Rep', at: Date.now() }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function seedContact(h: Harness, accountId: number, orgId: number, email: string | null): Promise<number> {
  const now = Date.now();
  const r = await h.db
    .insertInto('contacts')
    .values({
      account_id: accountId,
      org_id: orgId,
      name: 'Pat',
      name_lc: 'pat',
      email,
      email_lc: email?.toLowerCase() ?? null,
      phone: null,
      title: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export interface DealSeed {
  org_id: number;
  title?: string;
  status?: DealStatus;
  created_at?: number;
  updated_at?: number;
  owner_user_id?: number | null;
  contact_id?: number | null;
  value_cents?: number | null;
  currency?: string | null;
  payment_customer_id?: string | null;
}

export async function seedDeal(h: Harness, accountId: number, d: DealSeed): Promise<number> {
  const created = d.created_at ?? Date.now();
  const title = d.title ?? 'Deal';
  const r = await h.db
    .insertInto('deals')
    .values({
      account_id: accountId,
      org_id: d.org_id,
      contact_id: d.contact_id ?? null,
      owner_user_id: d.owner_user_id ?? null,
      title,
      title_lc: title.toLowerCase(),
      status: d.status ?? 'new',
      value_cents: d.value_cents ?? null,
      currency: d.currency ?? null,
      payment_customer_id: d.payment_customer_id ?? null,
      next_followup_at: null,
      lost_reason_code: null,
      lost_reason_label: null,
      closed_at: null,
      closed_by_user_id: null,
      last_activity_at: created,
      created_at: created,
      updated_at: d.updated_at ?? created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Makes every outbox insert fail inside its transaction, to prove a failed write leaves nothing behind. */
export async function breakOutbox(h: Harness): Promise<() => Promise<void>> {
  if (h.engine === 'sqlite') {
    await sql`create trigger deals_test_fail_events before insert on events begin select raise(abort, 'outbox down'); end`.execute(h.db);
    return async () => void (await sql`drop trigger deals_test_fail_events`.execute(h.db));
  }
  await sql`create function deals_test_fail() returns trigger language plpgsql as $$ begin raise exception 'outbox down'; end $$`.execute(h.db);
  await sql`create trigger deals_test_fail_events before insert on events for each row execute function deals_test_fail()`.execute(h.db);
  return async () => {
    await sql`drop trigger deals_test_fail_events on events`.execute(h.db);
    await sql`drop function deals_test_fail()`.execute(h.db);
  };
}

/** Status history rows of a deal, oldest first, as plain objects (SQLite rows have a null prototype). */
export async function historyOf(h: Harness, dealId: number) {
  const rows = await h.db
    .selectFrom('deal_status_history')
    .select(['from_status', 'to_status', 'changed_by_user_id', 'changed_at'])
    .where('deal_id', '=', dealId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ from_status: r.from_status, to_status: r.to_status, changed_by_user_id: r.changed_by_user_id, changed_at: Number(r.changed_at) }));
}

export const STATUSES: DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
export const OPEN: DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation'];
