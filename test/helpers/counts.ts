import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';

/** The tables of an account's own records (what the demo seed writes): its people, customers, deals and support. */
export const CONTENT_TABLES = [
  'users',
  'orgs',
  'org_external_ids',
  'marketing_audiences',
  'contacts',
  'contact_audiences',
  'deals',
  'deal_status_history',
  'deal_activities',
  'tickets',
  'support_logs',
] as const satisfies (keyof Database)[];

const TABLES: (keyof Database)[] = [
  'accounts',
  'api_keys',
  ...CONTENT_TABLES,
  'webhook_endpoints',
  'events',
  'webhook_deliveries',
  'webhook_attempts',
  'idempotency_keys',
];

/** Row counts of every table: a rejected request must leave them all unchanged (the outbox included). */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const r = await db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  return out;
}

/** The outbox rows of one account, oldest first, with parsed payloads. */
export async function outboxOf(db: Db, accountId: number): Promise<{ event_type: string; org_id: number; payload: any }[]> {
  const rows = await db.selectFrom('events').select(['event_type', 'org_id', 'payload']).where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map((r) => ({ event_type: r.event_type, org_id: Number(r.org_id), payload: JSON.parse(r.payload) }));
}
