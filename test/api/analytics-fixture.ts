import type { Harness } from '../helpers/harness.ts';
import { userRow } from '../helpers/user-row.ts';
import type { DealStatus, TicketStatus } from '../../src/db/schema.ts';

/** Direct inserts (no service code): the analytics tests own every row they count. */
export const at = (s: string) => Date.parse(s.endsWith('Z') ? s : `${s}Z`);

export async function user(h: Harness, accountId: number, name: string) {
  const email = `${name.toLowerCase()}-${accountId}@example.com`;
  const r = await h.db
    .insertInto('users')
    .values(userRow({ accountId, email, displayName: name, supportEnabled: true, at: at('2026-01-01T00:00:00') }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function org(h: Harness, accountId: number, name: string) {
  const now = at('2026-01-01T00:00:00');
  const r = await h.db
    .insertInto('orgs')
    .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export interface DealSpec {
  org: number;
  owner: number | null;
  created: string;
  status: DealStatus;
  /** Status history after creation: [status, at]; the creation row (from null) is added. */
  moves?: [DealStatus, string][];
  initial?: DealStatus;
  closed?: string;
  closedBy?: number | null;
  cents?: number | null;
  currency?: string | null;
  followup?: string | null;
  lastActivity?: string;
  reason?: [string, string];
}

export async function deal(h: Harness, accountId: number, d: DealSpec) {
  const created = at(d.created);
  const r = await h.db
    .insertInto('deals')
    .values({
      account_id: accountId,
      org_id: d.org,
      contact_id: null,
      owner_user_id: d.owner,
      title: 'Deal',
      title_lc: 'deal',
      status: d.status,
      value_cents: d.cents ?? null,
      currency: d.currency ?? null,
      payment_customer_id: null,
      next_followup_at: d.followup ? at(d.followup) : null,
      lost_reason_code: d.reason?.[0] ?? null,
      lost_reason_label: d.reason?.[1] ?? null,
      closed_at: d.closed ? at(d.closed) : null,
      closed_by_user_id: d.closedBy ?? null,
      last_activity_at: d.lastActivity ? at(d.lastActivity) : created,
      created_at: created,
      updated_at: created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(r.id);
  let from: DealStatus | null = null;
  for (const [to, when] of [[d.initial ?? 'new', d.created], ...(d.moves ?? [])] as [DealStatus, string][]) {
    await h.db
      .insertInto('deal_status_history')
      .values({ account_id: accountId, deal_id: id, from_status: from, to_status: to, changed_by_user_id: null, changed_at: at(when) })
      .execute();
    from = to;
  }
  return id;
}

export async function activity(
  h: Harness,
  accountId: number,
  dealId: number,
  orgId: number,
  kind: 'note' | 'email' | 'call' | 'meeting',
  userId: number | null,
  when: string,
) {
  await h.db
    .insertInto('deal_activities')
    .values({
      account_id: accountId,
      deal_id: dealId,
      org_id: orgId,
      event_type: kind,
      message: 'm',
      outcome: null,
      source_app: null,
      external_reference: null,
      metadata: null,
      user_id: userId,
      created_at: at(when),
    })
    .execute();
}

export async function ticket(h: Harness, accountId: number, t: { org: number; owner: number | null; created: string; status: TicketStatus; closed?: string }) {
  const r = await h.db
    .insertInto('tickets')
    .values({
      account_id: accountId,
      org_id: t.org,
      contact_id: null,
      owner_user_id: t.owner,
      title: 'T',
      title_lc: 't',
      details: 'd',
      status: t.status,
      channel: 'api',
      external_reference: null,
      metadata: null,
      source_app: null,
      created_at: at(t.created),
      updated_at: at(t.created),
      closed_at: t.closed ? at(t.closed) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function log(h: Harness, accountId: number, ticketId: number, orgId: number, author: number | null, when: string) {
  await h.db
    .insertInto('support_logs')
    .values({ account_id: accountId, ticket_id: ticketId, org_id: orgId, note: 'n', channel: 'api', author_user_id: author, created_at: at(when) })
    .execute();
}

export interface Fixture {
  accountId: number;
  alice: number;
  bob: number;
  owner: number;
  acme: number;
  globex: number;
  initech: number;
}

/**
 * The hand-built account of analytics.test.ts; every expected number there is worked out from
 * this list by hand (see the comments beside each record). The clock stands at 2026-11-21T12:00Z.
 */
export async function buildFixture(h: Harness, accountId: number, owner: number): Promise<Fixture> {
  const alice = await user(h, accountId, 'Alice');
  const bob = await user(h, accountId, 'Bob');
  const acme = await org(h, accountId, 'Acme');
  const globex = await org(h, accountId, 'Globex');
  const initech = await org(h, accountId, 'Initech');
  // d1: created Nov 2, won Nov 10 (closer Bob), reached proposal.
  const d1 = await deal(h, accountId, {
    org: acme,
    owner: alice,
    created: '2026-11-02T10:00:00',
    status: 'won',
    closed: '2026-11-10T00:00:00',
    closedBy: bob,
    cents: 100000,
    currency: 'USD',
    moves: [
      ['qualified', '2026-11-03T00:00:00'],
      ['proposal', '2026-11-05T00:00:00'],
      ['won', '2026-11-10T00:00:00'],
    ],
  });
  // d2: created Nov 3, lost Nov 12 for price (closer Alice), reached qualified.
  const d2 = await deal(h, accountId, {
    org: acme,
    owner: alice,
    created: '2026-11-03T00:00:00',
    status: 'lost',
    closed: '2026-11-12T00:00:00',
    closedBy: alice,
    cents: 50000,
    currency: 'USD',
    reason: ['price', 'Too expensive'],
    moves: [
      ['qualified', '2026-11-04T00:00:00'],
      ['lost', '2026-11-12T00:00:00'],
    ],
  });
  // d3: created exactly at Monday Nov 16 00:00, open proposal 200.50 EUR, follow-up overdue (Nov 20), active Nov 18.
  const d3 = await deal(h, accountId, {
    org: globex,
    owner: bob,
    created: '2026-11-16T00:00:00',
    status: 'proposal',
    cents: 20050,
    currency: 'EUR',
    followup: '2026-11-20T00:00:00',
    lastActivity: '2026-11-18T00:00:00',
    moves: [
      ['qualified', '2026-11-17T00:00:00'],
      ['proposal', '2026-11-18T00:00:00'],
    ],
  });
  // d4: created Oct 15 unassigned, open new without value, follow-up in the future, no activity since creation (stale).
  await deal(h, accountId, { org: globex, owner: null, created: '2026-10-15T00:00:00', status: 'new', followup: '2026-11-25T00:00:00' });
  // d5: created Oct 20, won exactly at Nov 1 00:00 (closer Bob), reached negotiation.
  const d5 = await deal(h, accountId, {
    org: initech,
    owner: bob,
    created: '2026-10-20T00:00:00',
    status: 'won',
    closed: '2026-11-01T00:00:00',
    closedBy: bob,
    cents: 30000,
    currency: 'USD',
    moves: [
      ['negotiation', '2026-10-25T00:00:00'],
      ['won', '2026-11-01T00:00:00'],
    ],
  });
  // d6: created Sep 10, lost at the last millisecond of October, no reason.
  await deal(h, accountId, {
    org: initech,
    owner: alice,
    created: '2026-09-10T00:00:00',
    status: 'lost',
    closed: '2026-10-31T23:59:59.999',
    closedBy: alice,
    moves: [['lost', '2026-10-31T23:59:59.999']],
  });
  // d7: created today 11:00 directly at qualified, now negotiation, 50 USD.
  const d7 = await deal(h, accountId, {
    org: acme,
    owner: alice,
    created: '2026-11-21T11:00:00',
    status: 'negotiation',
    initial: 'qualified',
    cents: 5000,
    currency: 'USD',
    moves: [['negotiation', '2026-11-21T11:30:00']],
  });
  // d8: created at the last millisecond of 2025, won at the first of 2026 (no closer).
  await deal(h, accountId, {
    org: acme,
    owner: bob,
    created: '2025-12-31T23:59:59.999',
    status: 'won',
    closed: '2026-01-01T00:00:00',
    cents: 70000,
    currency: 'USD',
    moves: [['won', '2026-01-01T00:00:00']],
  });

  await activity(h, accountId, d1, acme, 'note', alice, '2026-11-02T11:00:00'); // a1
  await activity(h, accountId, d1, acme, 'email', alice, '2026-11-04T00:00:00'); // a2
  await activity(h, accountId, d3, globex, 'call', bob, '2026-11-18T00:00:00'); // a3
  await activity(h, accountId, d7, acme, 'meeting', null, '2026-11-21T11:00:00'); // a4 (by an API key)
  await activity(h, accountId, d2, acme, 'call', alice, '2026-10-20T00:00:00'); // a5
  await activity(h, accountId, d5, initech, 'note', bob, '2026-10-25T00:00:00'); // a6

  const t1 = await ticket(h, accountId, { org: acme, owner: alice, created: '2026-11-05T00:00:00', status: 'open' }); // aged
  const t2 = await ticket(h, accountId, { org: globex, owner: bob, created: '2026-11-15T12:00:00', status: 'pending' }); // not aged
  const t3 = await ticket(h, accountId, { org: acme, owner: alice, created: '2026-10-10T00:00:00', status: 'closed', closed: '2026-11-03T00:00:00' });
  await ticket(h, accountId, { org: initech, owner: null, created: '2026-11-14T12:00:00', status: 'open' }); // t4: exactly 7 days old, not aged
  const t5 = await ticket(h, accountId, { org: globex, owner: bob, created: '2026-10-01T00:00:00', status: 'closed', closed: '2026-10-20T00:00:00' });
  await ticket(h, accountId, { org: acme, owner: bob, created: '2026-09-01T00:00:00', status: 'pending' }); // t6: aged

  await log(h, accountId, t1, acme, alice, '2026-11-05T00:00:00'); // l1
  await log(h, accountId, t1, acme, null, '2026-11-06T00:00:00'); // l2
  await log(h, accountId, t2, globex, bob, '2026-11-15T12:00:00'); // l3
  await log(h, accountId, t3, acme, alice, '2026-10-10T00:00:00'); // l4
  await log(h, accountId, t3, acme, alice, '2026-11-03T00:00:00'); // l5
  await log(h, accountId, t5, globex, bob, '2026-10-20T00:00:00'); // l6
  return { accountId, alice, bob, owner, acme, globex, initech };
}

/** Another account with records all over November 2026: none of them may move a number of the fixture. */
export async function buildNoise(h: Harness, accountId: number) {
  const u = await user(h, accountId, 'Mallory');
  const o = await org(h, accountId, 'Other Co');
  for (const [i, status] of (['new', 'won', 'lost', 'proposal'] as const).entries()) {
    const created = `2026-11-0${i + 1}T00:00:00`;
    const closed = status === 'won' || status === 'lost' ? `2026-11-1${i}T00:00:00` : undefined;
    const id = await deal(h, accountId, {
      org: o,
      owner: u,
      created,
      status,
      closed,
      closedBy: u,
      cents: 999,
      currency: 'USD',
      followup: '2026-11-01T00:00:00',
      reason: status === 'lost' ? ['price', 'x'] : undefined,
    });
    await activity(h, accountId, id, o, 'note', u, created);
    const t = await ticket(h, accountId, {
      org: o,
      owner: u,
      created: '2026-10-01T00:00:00',
      status: i % 2 ? 'open' : 'closed',
      closed: i % 2 ? undefined : '2026-11-05T00:00:00',
    });
    await log(h, accountId, t, o, u, created);
  }
  return u;
}
