import type { Trx } from '../db/database.ts';
import type { Random } from './random.ts';

export const DAY_MS = 86_400_000;
/** Deals, activities, tickets and logs fall inside this many days before now. */
export const DEMO_WINDOW_DAYS = 120;

export interface DemoUser {
  id: number;
  active: boolean;
  sales: boolean;
  support: boolean;
}

export interface DemoOrg {
  id: number;
  name: string;
  contactIds: number[];
}

/** What the sales and support generators build on. */
export interface DemoWorld {
  trx: Trx;
  rnd: Random;
  now: number;
  accountId: number;
  users: DemoUser[];
  orgs: DemoOrg[];
}

/** A random instant in the last `days` days (never in the future), whole seconds. */
export function recent(rnd: Random, now: number, days: number): number {
  return now - rnd.int(60, days * 86_400 - 1) * 1000;
}

/** Items of `rows` inserted a few hundred at a time (bound-parameter limits on both engines). */
export async function insertBatched<R>(rows: R[], insert: (chunk: R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await insert(rows.slice(i, i + 200));
}

/**
 * The columns deals and tickets begin with: a titled record of `org`, with one of its contacts
 * (drawn with chance `contactChance`, when it has any) and `owner`.
 */
export function titledRecord(w: DemoWorld, org: DemoOrg, contactChance: number, owner: DemoUser | null, title: string) {
  return {
    account_id: w.accountId,
    org_id: org.id,
    contact_id: org.contactIds.length && w.rnd.chance(contactChance) ? w.rnd.pick(org.contactIds) : null,
    owner_user_id: owner?.id ?? null,
    title,
    title_lc: title.toLowerCase(),
  };
}
