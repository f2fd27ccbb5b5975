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
const monthOf = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY;
};
const yearOf = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1) / DAY;
const KIND: Record<string, number> = { note: 1, email: 2, call: 3, meeting: 4 };
const TOTAL_LEVEL = new Set(['deal_created', 'deal_won_owner', 'deal_lost_owner', 'ticket_created', 'ticket_closed', 'support_log']);
const MONTH_LEVEL = new Set([...TOTAL_LEVEL, 'deal_won_closer', 'deal_lost_closer', 'activity_kind', 'activity_user']);
const OPEN_DEAL = new Set(['new', 'qualified', 'proposal', 'negotiation']);
const STAGE: Record<string, number | undefined> = { new: 1, qualified: 2, proposal: 3, negotiation: 4, won: 5 };

export class RollupTally {
  readonly #daily = new Map<string, number>();
  readonly #lists = new Map<string, number>();
  readonly accountId: number;
  constructor(accountId: number) {
    this.accountId = accountId;
  }

  #add(fact: string, day: number, dim: number): void {
    this.#bump(fact, day, dim);
    // The coarser levels of migration 2026-11-25T0300_analytics_levels.
    if (MONTH_LEVEL.has(fact)) this.#bump(`${fact}_month`, monthOf(day * DAY), dim);
    if (TOTAL_LEVEL.has(fact)) this.#bump(`${fact}_total`, day, 0);
  }

  #bump(fact: string, day: number, dim: number): void {
    const key = `${fact}|${day}|${dim}`;
    this.#daily.set(key, (this.#daily.get(key) ?? 0) + 1);
  }

  /** A fact dated by month, and the same by year (the per-org facts). */
  #addOrg(fact: string, at: number, org: number): void {
    this.#add(fact, monthOf(at), org);
    this.#add(`${fact}_year`, yearOf(at), org);
  }

  /** One kept list count (see the list_counts migration): `list` and `bucket` name it. */
  count(list: string, bucket: string): void {
    const key = `${list}|${bucket}`;
    this.#lists.set(key, (this.#lists.get(key) ?? 0) + 1);
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
    this.#add('deal_created', dayOf(d.createdAt), owner);
    this.#addOrg('org_deal_created', d.createdAt, d.org);
    if (d.closedAt !== null && (d.status === 'won' || d.status === 'lost')) {
      this.#add(`deal_${d.status}_owner`, dayOf(d.closedAt), owner);
      this.#add(`deal_${d.status}_closer`, dayOf(d.closedAt), d.closer ?? 0);
      if (d.status === 'won') this.#addOrg('org_deal_won', d.closedAt, d.org);
    }
    if (OPEN_DEAL.has(d.status)) this.#bump('org_open_deal', 0, d.org);
    for (const s of new Set(d.stages)) {
      const stage = STAGE[s];
      if (stage !== undefined) this.#add('funnel_stage', dayOf(d.createdAt), stage);
    }
  }

  activity(a: { kind: string; user: number | null; org: number; createdAt: number }): void {
    this.#add('activity_kind', dayOf(a.createdAt), KIND[a.kind]);
    this.#add('activity_user', dayOf(a.createdAt), a.user ?? 0);
    this.#addOrg('org_activity', a.createdAt, a.org);
  }

  ticket(t: { owner: number | null; org: number; status: string; closedAt: number | null; createdAt: number }): void {
    this.#add('ticket_created', dayOf(t.createdAt), t.owner ?? 0);
    this.#addOrg('org_ticket_created', t.createdAt, t.org);
    if (t.status === 'open' || t.status === 'pending') this.#bump('org_open_ticket', 0, t.org);
    if (t.status === 'closed' && t.closedAt !== null) {
      this.#add('ticket_closed', dayOf(t.closedAt), t.owner ?? 0);
      this.#addOrg('org_ticket_closed', t.closedAt, t.org);
    }
  }

  log(l: { author: number | null; org: number; createdAt: number }): void {
    this.#add('support_log', dayOf(l.createdAt), l.author ?? 0);
    this.#addOrg('org_support_log', l.createdAt, l.org);
  }

  /** The rollup rows `(account_id, fact, day, dim, n)` gathered so far, and forgets them. */
  takeDaily(): Row[] {
    const rows: Row[] = [];
    for (const [key, n] of this.#daily) {
      const [fact, day, dim] = key.split('|');
      rows.push([this.accountId, fact, Number(day), Number(dim), n]);
    }
    this.#daily.clear();
    return rows;
  }

  /** The kept list counts `(account_id, list, bucket, shard, n)` gathered so far (shard 0), and forgets them. */
  takeLists(): Row[] {
    const rows: Row[] = [];
    for (const [key, n] of this.#lists) {
      const [list, bucket] = key.split('|');
      rows.push([this.accountId, list, bucket, 0, n]);
    }
    this.#lists.clear();
    return rows;
  }
}
