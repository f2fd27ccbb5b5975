import type { DatabaseHandle } from '../../src/db/database.ts';
import { Random } from '../../src/demo/random.ts';

/** What the routes of one account need: its key and ids to address, sampled from its rows. */
export interface AccountSample {
  accountId: number;
  key: string;
  orgIds: number[];
  ownerIds: number[];
  dealIds: number[];
  ticketIds: number[];
  paymentIds: string[];
  contactEmails: string[];
  /** Pieces of real titles and names: search terms that match something. */
  terms: string[];
}

export async function sampleAccount(h: DatabaseHandle, accountId: number, key: string): Promise<AccountSample> {
  const db = h.db;
  const ids = async (table: 'orgs' | 'deals' | 'tickets' | 'users', n: number) =>
    (await db.selectFrom(table).select('id').where('account_id', '=', accountId).orderBy('id').limit(n).execute()).map((r) => Number(r.id));
  const titles = await db.selectFrom('deals').select('title').where('account_id', '=', accountId).orderBy('id', 'desc').limit(200).execute();
  const rnd = new Random(accountId);
  const terms = titles.map((t) => {
    const chars = [...t.title];
    const len = rnd.int(3, 6);
    const start = rnd.int(0, Math.max(0, chars.length - len));
    return chars.slice(start, start + len).join('');
  });
  const payments = await db
    .selectFrom('deals')
    .select('payment_customer_id')
    .where('account_id', '=', accountId)
    .where('payment_customer_id', 'is not', null)
    .limit(50)
    .execute();
  const emails = await db.selectFrom('contacts').select('email').where('account_id', '=', accountId).where('email', 'is not', null).limit(50).execute();
  return {
    accountId,
    key,
    orgIds: await ids('orgs', 200),
    ownerIds: await ids('users', 50),
    dealIds: await ids('deals', 500),
    ticketIds: await ids('tickets', 200),
    paymentIds: payments.map((p) => p.payment_customer_id!),
    contactEmails: emails.map((e) => e.email!),
    terms,
  };
}

export interface Route {
  name: string;
  /** The path of request `i`: ids, terms and pages change from one request to the next. */
  path(s: AccountSample, i: number): string;
}

const at = <T>(list: T[], i: number) => list[(i * 7919) % list.length];
const SORTS = ['created_at', 'updated_at', 'id', 'title', 'status'];

/** Every list and search route of the API, with the parameters that make each one costly. */
export const ROUTES: Route[] = [
  { name: 'GET /deals/{id}', path: (s, i) => `/deals/${at(s.dealIds, i)}` },
  { name: 'GET /deals', path: () => '/deals' },
  ...SORTS.map((sort) => ({
    name: `GET /deals?status=qualified&sort=${sort}`,
    path: (_s: AccountSample, i: number) => `/deals?status=qualified&sort=${sort}&direction=${i % 2 ? 'asc' : 'desc'}`,
  })),
  ...SORTS.map((sort) => ({
    name: `GET /deals?sort=${sort}`,
    path: (_s: AccountSample, i: number) => `/deals?sort=${sort}&direction=${i % 2 ? 'asc' : 'desc'}`,
  })),
  { name: 'GET /deals?org_id', path: (s, i) => `/deals?org_id=${at(s.orgIds, i)}&sort=title` },
  { name: 'GET /deals?owner_user_id', path: (s, i) => `/deals?owner_user_id=${at(s.ownerIds, i)}&sort=updated_at` },
  { name: 'GET /deals?created_from (30 days)', path: (_s, i) => `/deals?created_from=${day(-60 - (i % 300))}&created_to=${day(-30 - (i % 300))}` },
  { name: 'GET /deals?q', path: (s, i) => `/deals?q=${encodeURIComponent(at(s.terms, i))}` },
  { name: 'GET /deals?page (up to 400)', path: (_s, i) => `/deals?page=${1 + ((i * 37) % 400)}` },
  { name: 'GET /deals?status&page=400', path: (_s, i) => `/deals?status=${i % 2 ? 'won' : 'lost'}&sort=updated_at&page=${380 + (i % 21)}` },
  {
    name: 'GET /deals/search',
    path: (s, i) =>
      i % 2 ? `/deals/search?payment_customer_id=${at(s.paymentIds, i)}` : `/deals/search?contact_email=${encodeURIComponent(at(s.contactEmails, i))}`,
  },
  { name: 'GET /deals/{id}/activities', path: (s, i) => `/deals/${at(s.dealIds, i)}/activities` },
  { name: 'GET /orgs', path: (_s, i) => `/orgs?page=${1 + (i % 4)}` },
  { name: 'GET /orgs?q', path: (s, i) => `/orgs?q=${encodeURIComponent(at(s.terms, i).slice(0, 4))}` },
  { name: 'GET /contacts', path: (_s, i) => `/contacts?page=${1 + ((i * 13) % 400)}` },
  { name: 'GET /contacts?org_id', path: (s, i) => `/contacts?org_id=${at(s.orgIds, i)}` },
  { name: 'GET /contacts?q', path: (s, i) => `/contacts?q=${encodeURIComponent(at(s.terms, i).slice(0, 4))}` },
  { name: 'GET /support/tickets', path: () => '/support/tickets' },
  { name: 'GET /support/tickets?open_only=1', path: (_s, i) => `/support/tickets?open_only=1&page=${1 + (i % 40)}` },
  { name: 'GET /support/tickets?status=closed&sort=title', path: (_s, i) => `/support/tickets?status=closed&sort=title&page=${1 + ((i * 11) % 400)}` },
  { name: 'GET /support/tickets?q', path: (_s, i) => `/support/tickets?q=${['invoice', 'sso log', 'webhook', 'admin', 'vat', 'crash', 'import'][i % 7]}` },
  { name: 'GET /support/tickets/{id}/logs', path: (s, i) => `/support/tickets/${at(s.ticketIds, i)}/logs` },
  { name: 'GET /users', path: () => '/users' },
  { name: 'GET /activity', path: (_s, i) => `/activity?page=${1 + (i % 20)}` },
  { name: 'GET /activity?source=support', path: (s, i) => `/activity?source=support&org_id=${at(s.orgIds, i)}` },
];

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

export const ANALYTICS = ['sales', 'support', 'team', 'customers', 'activity', 'trends'].map((name) => ({
  name: `GET /analytics/${name}?range=this_year&compare=1`,
  path: () => `/analytics/${name}?range=this_year&compare=1`,
}));
