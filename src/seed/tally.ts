import type { Row } from './tables.ts';

/**
 * What the database triggers would add to `analytics_daily` for the rows the seed writes,
 * computed in this process so bulk writes can bypass the row triggers (on PostgreSQL a
 * trigger call per row is most of the cost of a million rows). The definitions mirror the
 * triggers of the analytics migrations exactly; test/seed/seed.test.ts proves it by
 * seeding once with the triggers and once without and comparing the rollups.
 */
const DAY = 86_400_000;
const dayOf = (ms: number) => Math.floor(ms / DAY);
/** The first day of a day's month and year (days since 1970), worked out once per day seen. */
const MONTH_START = new Map<number, number>();
const YEAR_START = new Map<number, number>();
const monthOfDay = (day: number) => {
  let m = MONTH_START.get(day);
  if (m === undefined) {
    const d = new Date(day * DAY);
    m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY;
    MONTH_START.set(day, m);
  }
  return m;
};
const yearOfDay = (day: number) => {
  let y = YEAR_START.get(day);
  if (y === undefined) {
    y = Date.UTC(new Date(day * DAY).getUTCFullYear(), 0, 1) / DAY;
    YEAR_START.set(day, y);
  }
  return y;
};
const monthOf = (ms: number) => monthOfDay(dayOf(ms));
const yearOf = (ms: number) => yearOfDay(dayOf(ms));
const KIND: Record<string, number> = { note: 1, email: 2, call: 3, meeting: 4 };
const TOTAL_LEVEL = ['deal_created', 'deal_won_owner', 'deal_lost_owner', 'ticket_created', 'ticket_closed', 'support_log'];
const MONTH_LEVEL = [...TOTAL_LEVEL, 'deal_won_closer', 'deal_lost_closer', 'activity_kind', 'activity_user'];
const OPEN_DEAL = new Set(['new', 'qualified', 'proposal', 'negotiation']);
const STAGE: Record<string, number | undefined> = { new: 1, qualified: 2, proposal: 3, negotiation: 4, won: 5 };

/** Every fact the seed counts, in the order of their names (the rollup's primary key order). */
const BASE = [
  'activity_kind',
  'activity_user',
  'deal_created',
  'deal_lost_closer',
  'deal_lost_owner',
  'deal_won_closer',
  'deal_won_owner',
  'funnel_stage',
  'org_open_deal',
  'org_open_ticket',
  'support_log',
  'ticket_closed',
  'ticket_created',
];
const ORG = ['org_activity', 'org_deal_created', 'org_deal_won', 'org_support_log', 'org_ticket_closed', 'org_ticket_created'];
const FACTS = [...BASE, ...ORG, ...ORG.map((f) => `${f}_year`), ...MONTH_LEVEL.map((f) => `${f}_month`), ...TOTAL_LEVEL.map((f) => `${f}_total`)].sort();
const F = Object.fromEntries(FACTS.map((f, i) => [f, i])) as Record<string, number>;
/** Per fact, its monthly and whole-account levels (migration 2026-11-25T0300_analytics_levels), or -1. */
const MONTH_OF = FACTS.map((f) => (MONTH_LEVEL.includes(f) ? F[`${f}_month`] : -1));
const TOTAL_OF = FACTS.map((f) => (TOTAL_LEVEL.includes(f) ? F[`${f}_total`] : -1));
/** Per per-org fact, its yearly twin, or -1. */
const YEAR_OF = FACTS.map((f) => F[`${f}_year`] ?? -1);
/**
 * A rollup key as two small integers, `fact × 2^16 + day` and `dim`, so a million deals' worth of
 * counting makes no strings and (record ids being small integers) no heap numbers: fact < 2^6 and
 * day < 2^16 (until 2149); numeric order of the pair is the primary key's (fact by name, day, dim).
 */
const DAY_SPAN = 2 ** 16;
const DIM_SPAN = 2 ** 31;
if (FACTS.length > 64) throw new Error('seed: more facts than the rollup key holds');

export class RollupTally {
  /** Counts by `fact × 2^16 + day`, then by dim. */
  readonly #daily = new Map<number, Map<number, number>>();
  readonly #lists = new Map<string, number>();
  readonly accountId: number;
  constructor(accountId: number) {
    this.accountId = accountId;
  }

  #add(fact: number, day: number, dim: number): void {
    this.#bump(fact, day, dim);
    // The coarser levels of migration 2026-11-25T0300_analytics_levels.
    if (MONTH_OF[fact] >= 0) this.#bump(MONTH_OF[fact], monthOfDay(day), dim);
    if (TOTAL_OF[fact] >= 0) this.#bump(TOTAL_OF[fact], day, 0);
  }

  #bump(fact: number, day: number, dim: number): void {
    if (dim >= DIM_SPAN || day >= DAY_SPAN) throw new Error(`seed: rollup key out of range (day ${day}, dim ${dim})`);
    const key = fact * DAY_SPAN + day;
    let dims = this.#daily.get(key);
    if (!dims) {
      dims = new Map();
      this.#daily.set(key, dims);
    }
    dims.set(dim, (dims.get(dim) ?? 0) + 1);
  }

  /** A fact dated by month, and the same by year (the per-org facts). */
  #addOrg(fact: string, at: number, org: number): void {
    const f = F[fact];
    this.#add(f, monthOf(at), org);
    this.#add(YEAR_OF[f], yearOf(at), org);
  }

  /** One kept list count (see the list_counts migration): `list` and `bucket` name it. */
  count(list: string, bucket: string): void {
    const key = `${list}|${bucket}`;
    this.#lists.set(key, (this.#lists.get(key) ?? 0) + 1);
  }

  /** One record of a list kept whole and by status (deals, tickets). */
  countWithStatus(list: string, status: string): void {
    this.count(list, '');
    this.count(list, `status:${status}`);
  }

  deal(d: {
    owner: number | null;
    closer: number | null;
    org: number;
    status: string;
    closedAt: number | null;
    createdAt: number;
    stages: Iterable<string>;
  }): void {
    const owner = d.owner ?? 0;
    this.#add(F.deal_created, dayOf(d.createdAt), owner);
    this.#addOrg('org_deal_created', d.createdAt, d.org);
    if (d.closedAt !== null && (d.status === 'won' || d.status === 'lost')) {
      this.#add(F[`deal_${d.status}_owner`], dayOf(d.closedAt), owner);
      this.#add(F[`deal_${d.status}_closer`], dayOf(d.closedAt), d.closer ?? 0);
      if (d.status === 'won') this.#addOrg('org_deal_won', d.closedAt, d.org);
    }
    if (OPEN_DEAL.has(d.status)) this.#bump(F.org_open_deal, 0, d.org);
    for (const s of new Set(d.stages)) {
      const stage = STAGE[s];
      if (stage !== undefined) this.#add(F.funnel_stage, dayOf(d.createdAt), stage);
    }
  }

  activity(a: { kind: string; user: number | null; org: number; createdAt: number }): void {
    this.#add(F.activity_kind, dayOf(a.createdAt), KIND[a.kind]);
    this.#add(F.activity_user, dayOf(a.createdAt), a.user ?? 0);
    this.#addOrg('org_activity', a.createdAt, a.org);
  }

  ticket(t: { owner: number | null; org: number; status: string; closedAt: number | null; createdAt: number }): void {
    this.#add(F.ticket_created, dayOf(t.createdAt), t.owner ?? 0);
    this.#addOrg('org_ticket_created', t.createdAt, t.org);
    if (t.status === 'open' || t.status === 'pending') this.#bump(F.org_open_ticket, 0, t.org);
    if (t.status === 'closed' && t.closedAt !== null) {
      this.#add(F.ticket_closed, dayOf(t.closedAt), t.owner ?? 0);
      this.#addOrg('org_ticket_closed', t.closedAt, t.org);
    }
  }

  log(l: { author: number | null; org: number; createdAt: number }): void {
    this.#add(F.support_log, dayOf(l.createdAt), l.author ?? 0);
    this.#addOrg('org_support_log', l.createdAt, l.org);
  }

  /**
   * The rollup rows `(account_id, fact, day, dim, n)` gathered so far in primary key order (the
   * upserts then walk the rollup's b-tree forward instead of at random), and forgets them.
   */
  takeDaily(): Row[] {
    const rows: Row[] = [];
    for (const key of Float64Array.from(this.#daily.keys()).sort()) {
      const dims = this.#daily.get(key)!;
      const day = key % DAY_SPAN;
      const fact = FACTS[(key - day) / DAY_SPAN];
      for (const dim of Float64Array.from(dims.keys()).sort()) rows.push([this.accountId, fact, day, dim, dims.get(dim)!]);
    }
    this.#daily.clear();
    return rows;
  }

  /**
   * The kept list counts `(account_id, list, bucket, shard, n)` gathered so far (shard 0) in one fixed
   * order (batches written side by side then take their row locks in the same order), and forgets them.
   */
  takeLists(): Row[] {
    const rows: Row[] = [];
    for (const [key, n] of [...this.#lists].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const [list, bucket] = key.split('|');
      rows.push([this.accountId, list, bucket, 0, n]);
    }
    this.#lists.clear();
    return rows;
  }
}
