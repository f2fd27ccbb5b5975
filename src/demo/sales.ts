import type { DealActivitiesTable, DealStatus, DealStatusHistoryTable } from '../db/schema.ts';
import { ACTIVITY_MESSAGES, DEAL_PRODUCTS, LOST_REASONS } from './catalog.ts';
import { DAY_MS, DEMO_WINDOW_DAYS, insertBatched, recent, titledRecord, type DemoWorld } from './world.ts';

const DEAL_COUNT = 42;
const FUNNEL: DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation'];
const STATUSES: DealStatus[] = [...FUNNEL, 'won', 'lost'];
const WEIGHTS: [DealStatus, number][] = [
  ['new', 0.1],
  ['qualified', 0.2],
  ['proposal', 0.15],
  ['negotiation', 0.1],
  ['won', 0.25],
  ['lost', 0.2],
];
const KINDS = ['note', 'email', 'call', 'meeting'] as const;
const SOURCE_APPS = ['crm-sync', 'console', 'mail-plugin'];

type NewActivity = Omit<DealActivitiesTable, 'id'>;
type NewChange = Omit<DealStatusHistoryTable, 'id'>;

/** The stages a deal went through to reach `target`, starting at `new`. */
function pathTo(target: DealStatus, stopAt: number): DealStatus[] {
  if (target === 'won') return [...FUNNEL, 'won'];
  if (target === 'lost') return [...FUNNEL.slice(0, stopAt + 1), 'lost'];
  return FUNNEL.slice(0, FUNNEL.indexOf(target) + 1);
}

/** Deals in every status with their status history, lost reasons and timeline activities. */
export async function seedDeals(w: DemoWorld): Promise<void> {
  const { trx, rnd, now, accountId } = w;
  const sellers = w.users.filter((u) => u.sales);
  const activities: NewActivity[] = [];
  const changes: NewChange[] = [];
  let kindTurn = 0;
  for (let i = 0; i < DEAL_COUNT; i++) {
    let status = STATUSES[i % STATUSES.length];
    if (i >= STATUSES.length) {
      let roll = rnd.next();
      status =
        WEIGHTS.find(([, p]) => {
          roll -= p;
          return roll < 0;
        })?.[0] ?? 'qualified';
    }
    const org = rnd.pick(w.orgs);
    const owner = rnd.chance(0.95) ? rnd.pick(sellers) : null;
    const created = recent(rnd, now, DEMO_WINDOW_DAYS);
    const path = pathTo(status, rnd.int(0, 3));
    const times = path.map(() => created + Math.floor(rnd.next() * (now - created) * 0.9)).sort((a, b) => a - b);
    times[0] = created;
    path.forEach((to, j) => {
      changes.push({
        account_id: accountId,
        deal_id: 0,
        from_status: j === 0 ? null : path[j - 1],
        to_status: to,
        changed_by_user_id: owner?.id ?? null,
        changed_at: times[j],
      });
    });
    const closed = status === 'won' || status === 'lost';
    const closedAt = closed ? times[times.length - 1] : null;
    const reason = status === 'lost' ? rnd.pick(LOST_REASONS) : null;

    const dealActivities: NewActivity[] = [];
    for (let n = rnd.int(i < 4 ? 1 : 0, 6); n > 0; n--) {
      const kind = kindTurn < KINDS.length ? KINDS[kindTurn++] : rnd.pick(KINDS);
      const actor = rnd.chance(0.85) ? (rnd.chance(0.7) && owner ? owner : rnd.pick(sellers)) : null;
      dealActivities.push({
        account_id: accountId,
        deal_id: 0,
        org_id: org.id,
        event_type: kind,
        message: rnd.pick(ACTIVITY_MESSAGES[kind]),
        outcome: kind === 'call' || kind === 'email' ? rnd.pick(['success', 'failed', 'skipped', null] as const) : null,
        source_app: rnd.pick(SOURCE_APPS),
        external_reference: rnd.chance(0.3) ? `ref-${rnd.token(8)}` : null,
        metadata: rnd.chance(0.2) ? JSON.stringify({ duration_minutes: rnd.int(5, 60) }) : null,
        user_id: actor?.id ?? null,
        created_at: created + Math.floor(rnd.next() * ((closedAt ?? now) - created)),
      });
    }
    const lastActivity = Math.max(created, ...dealActivities.map((a) => a.created_at));
    const title = `${rnd.pick(DEAL_PRODUCTS)} – ${org.name}`;
    const deal = await trx
      .insertInto('deals')
      .values({
        ...titledRecord(w, org, 0.8, owner, title),
        status,
        value_cents: rnd.chance(0.9) ? rnd.int(5, 500) * 10_000 : null,
        currency: rnd.chance(0.8) ? 'USD' : 'EUR',
        payment_customer_id: status === 'won' || rnd.chance(0.2) ? `cus_${rnd.token(14)}` : null,
        next_followup_at: !closed && rnd.chance(0.8) ? Math.floor(now / 3_600_000) * 3_600_000 + rnd.int(-10, 21) * DAY_MS : null,
        lost_reason_code: reason?.code ?? null,
        lost_reason_label: reason?.label ?? null,
        closed_at: closedAt,
        closed_by_user_id: closed ? (owner ?? rnd.pick(sellers)).id : null,
        last_activity_at: lastActivity,
        created_at: created,
        updated_at: Math.max(times[times.length - 1], lastActivity),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const c of changes) if (c.deal_id === 0) c.deal_id = deal.id;
    for (const a of dealActivities) activities.push({ ...a, deal_id: deal.id });
  }
  await insertBatched(changes, (chunk) => trx.insertInto('deal_status_history').values(chunk).execute());
  activities.sort((a, b) => a.created_at - b.created_at);
  await insertBatched(activities, (chunk) => trx.insertInto('deal_activities').values(chunk).execute());
}
