import type { Random } from '../demo/random.ts';
import type { Row } from './tables.ts';
import type { RollupTally } from './tally.ts';
import * as words from './vocabulary.ts';

const DAY = 86_400_000;
const OPEN = ['new', 'qualified', 'proposal', 'negotiation'] as const;

/** The time window of a seed: two years up to `end` (a UTC midnight, so a seed run twice the same day writes the same rows). */
export interface Window {
  start: number;
  end: number;
}

export function windowEndingAt(now: number): Window {
  const end = Math.floor(now / DAY) * DAY;
  return { start: end - 730 * DAY, end };
}

/** The records already written that new rows point to. */
export interface People {
  users: number[];
  /** Users who take tickets (a third of the team). */
  supportUsers: number[];
  orgs: number[];
  /** Contact ids by position of their org in `orgs`. */
  contactsByOrg: number[][];
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');

export function userRows(accountId: number, count: number, w: Window): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const first = words.FIRST_NAMES[i % words.FIRST_NAMES.length];
    const last = words.LAST_NAMES[Math.floor(i / words.FIRST_NAMES.length) % words.LAST_NAMES.length];
    const email = `seed.rep${i + 1}@team.example`;
    return [accountId, email, email, `${first} ${last}`, 'member', i % 17 !== 16, i % 3 === 0, w.start, w.start];
  });
}

export function orgRows(rnd: Random, accountId: number, count: number, w: Window): Row[] {
  return Array.from({ length: count }, () => {
    const name = `${rnd.pick(words.ORG_FIRST)} ${rnd.pick(words.ORG_SECOND)} ${rnd.pick(words.CITIES)}`;
    const created = w.start - 90 * DAY + Math.floor(rnd.next() * 455 * DAY);
    return [accountId, name, name.toLowerCase(), `${slug(name)}.example`, created, created];
  });
}

/** Contacts spread over the orgs (`orgOf[i]` is the position of contact i's org). */
export function contactRows(rnd: Random, accountId: number, orgIds: number[], orgRowsData: Row[], count: number): { rows: Row[]; orgOf: number[] } {
  const rows: Row[] = [];
  const orgOf: number[] = [];
  for (let i = 0; i < count; i++) {
    const o = i < orgIds.length ? i : rnd.int(0, orgIds.length - 1);
    const first = rnd.pick(words.FIRST_NAMES);
    const last = rnd.pick(words.LAST_NAMES);
    const name = `${first} ${last}`;
    const email = `${slug(first)}.${slug(last)}.${i + 1}@${orgRowsData[o][3]}`;
    const created = (orgRowsData[o][4] as number) + rnd.int(0, 60) * DAY;
    rows.push([
      accountId,
      orgIds[o],
      name,
      name.toLowerCase(),
      email,
      email.toLowerCase(),
      `+1 555 ${String(rnd.int(0, 9999999)).padStart(7, '0')}`,
      rnd.pick(words.JOB_TITLES),
      created,
      created,
    ]);
    orgOf.push(o);
  }
  return { rows, orgOf };
}

/** What drawing deals and tickets takes: the random sequence, the account, the records they point to, the window, and the tally (null when triggers keep the rollups). */
export interface Drawing {
  rnd: Random;
  accountId: number;
  people: People;
  window: Window;
  tally: RollupTally | null;
}

/** Record `i` of `total`, created in order over the window (a random moment in its share), at a random org. */
function placed({ rnd, people: p, window: w }: Drawing, i: number, total: number) {
  const created = w.start + Math.floor(((i + rnd.next()) * (w.end - w.start)) / total);
  const o = rnd.int(0, p.orgs.length - 1);
  return { created, age: w.end - created, org: p.orgs[o], contacts: p.contactsByOrg[o] };
}

/** The values deals and tickets begin with (`TITLED` in tables.ts): a titled record of an org, with a contact and an owner. */
function titled(accountId: number, org: number, contact: number | null, owner: number | null, title: string): Row {
  return [accountId, org, contact, owner, title, title.toLowerCase()];
}

/** One deal with its status history and timeline, before ids exist. */
export interface DealDraft {
  deal: Row;
  history: { from: string | null; to: string; by: number | null; at: number }[];
  activities: Row[];
}

/** Deal `i` of `total`, created in order over the window. */
export function dealDraft(d: Drawing, i: number, total: number): DealDraft {
  const { rnd, accountId, people: p, window: w, tally } = d;
  const { created, age, org, contacts } = placed(d, i, total);
  const contact = contacts.length && rnd.chance(0.8) ? rnd.pick(contacts) : null;
  const owner = rnd.chance(0.92) ? rnd.pick(p.users) : null;
  const r = rnd.next();
  const old = age > 90 * DAY;
  const status = r < (old ? 0.45 : 0.2) ? 'won' : r < (old ? 0.85 : 0.35) ? 'lost' : OPEN[Math.min(3, Math.floor(rnd.next() * rnd.next() * 5))];
  const closed = status === 'won' || status === 'lost';
  // The furthest open stage reached before the final status.
  const reached = closed ? rnd.int(0, 3) : OPEN.indexOf(status as (typeof OPEN)[number]);
  const lastChange = closed ? Math.min(w.end - 1, created + rnd.int(1, 120) * DAY + rnd.int(0, DAY - 1)) : created + Math.floor(rnd.next() * age);
  const steps: string[] = OPEN.slice(0, reached + 1) as string[];
  if (closed) steps.push(status);
  const history: DealDraft['history'] = [];
  for (let s = 0; s < steps.length; s++) {
    const at = s === 0 ? created : created + Math.floor(((lastChange - created) * s) / (steps.length - 1));
    history.push({ from: s === 0 ? null : steps[s - 1], to: steps[s], by: owner !== null && rnd.chance(0.8) ? owner : null, at });
  }
  const closer = closed ? history[history.length - 1].by : null;
  const lost = status === 'lost' ? rnd.pick(words.LOST_REASONS) : null;
  const product = rnd.pick(words.PRODUCTS);
  const title = `${product}: ${String(rnd.pick(words.ORG_FIRST))} ${i + 1}`;
  const activities: Row[] = [];
  const until = closed ? lastChange : w.end - 1;
  let lastActivity = created;
  const n = rnd.int(0, 6);
  const times = Array.from({ length: n }, () => created + Math.floor(rnd.next() * (until - created))).sort((a, b) => a - b);
  for (const at of times) {
    const kind = rnd.pick(['note', 'email', 'call', 'meeting'] as const);
    const user = owner !== null && rnd.chance(0.7) ? owner : null;
    activities.push([
      accountId,
      0,
      org,
      kind,
      rnd.pick(words.MESSAGES[kind]),
      rnd.chance(0.5) ? rnd.pick(['success', 'failed', 'skipped']) : null,
      rnd.chance(0.6) ? 'crm' : 'mail-sync',
      rnd.chance(0.2) ? `ext-${rnd.token(8)}` : null,
      null,
      user,
      at,
    ]);
    tally?.activity({ kind, user, org, createdAt: at });
    lastActivity = Math.max(lastActivity, at);
  }
  const deal: Row = [
    ...titled(accountId, org, contact, owner, title),
    status,
    rnd.int(5, 2000) * 100 + (rnd.chance(0.3) ? rnd.int(1, 99) : 0),
    rnd.pick(words.CURRENCIES),
    rnd.chance(0.3) ? `cus_${rnd.token(14)}` : null,
    closed || rnd.chance(0.3) ? null : w.end + rnd.int(-30, 30) * DAY,
    lost?.code ?? null,
    lost?.label ?? null,
    closed ? lastChange : null,
    closer,
    lastActivity,
    created,
    lastChange,
  ];
  tally?.deal({ owner, closer, org, status, closedAt: closed ? lastChange : null, createdAt: created, stages: steps });
  tally?.countWithStatus('deals', status);
  return { deal, history, activities };
}

export interface TicketDraft {
  ticket: Row;
  logs: Row[];
}

/** Ticket `i` of `total`, created in order over the window. */
export function ticketDraft(d: Drawing, i: number, total: number): TicketDraft {
  const { rnd, accountId, people: p, window: w, tally } = d;
  const { created, age, org, contacts } = placed(d, i, total);
  const contact = contacts.length ? rnd.pick(contacts) : null;
  const owner = p.supportUsers.length && rnd.chance(0.7) ? rnd.pick(p.supportUsers) : null;
  const r = rnd.next();
  const status = age > 30 * DAY ? (r < 0.85 ? 'closed' : r < 0.95 ? 'pending' : 'open') : r < 0.3 ? 'closed' : r < 0.5 ? 'pending' : 'open';
  const topic = rnd.pick(words.TICKET_TOPICS);
  const channel = rnd.pick(words.CHANNELS);
  const end = status === 'closed' ? Math.min(w.end - 1, created + rnd.int(0, 20) * DAY + rnd.int(1, DAY - 1)) : created + Math.floor(rnd.next() * age);
  const logs: Row[] = [[accountId, 0, org, topic.details, channel, null, created]];
  tally?.log({ author: null, org, createdAt: created });
  const more = rnd.int(0, 3);
  for (let k = 1; k <= more; k++) {
    const at = created + Math.floor(((end - created) * k) / more);
    const author = owner !== null && rnd.chance(0.8) ? owner : null;
    logs.push([accountId, 0, org, rnd.pick(words.LOG_NOTES), channel, author, at]);
    tally?.log({ author, org, createdAt: at });
  }
  const title = `${topic.title} (#${i + 1})`;
  const closedAt = status === 'closed' ? end : null;
  const ticket: Row = [
    ...titled(accountId, org, contact, owner, title),
    topic.details,
    status,
    channel,
    rnd.chance(0.5) ? `case-${rnd.token(10)}` : null,
    null,
    'helpdesk',
    created,
    end,
    closedAt,
  ];
  tally?.ticket({ owner, org, status, closedAt, createdAt: created });
  tally?.countWithStatus('tickets', status);
  return { ticket, logs };
}
