import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { DealStatus } from '../../src/db/schema.ts';
import { Random } from '../../src/demo/random.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';

export interface GeneratedAccount {
  accountId: number;
  /** A full-access key whose rate limit never interferes with the load. */
  key: string;
  deals: number;
}

const STATUSES: DealStatus[] = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const DAY_MS = 86_400_000;

/**
 * One account with `deals` deals (plus orgs and users to own them) in a SQLite file. Rows go in
 * through one prepared statement inside one transaction: about a second per 100k rows.
 */
export async function generateDealsDatabase(path: string, options: { deals: number; orgs?: number; users?: number; seed?: number }): Promise<GeneratedAccount> {
  const handle = openDatabase(`sqlite:${path}`);
  try {
    await migrateToLatest(handle.db);
    const deps = { db: handle.db, clock: systemClock };
    const { account, owner } = await createAccount(deps, { name: 'Bench Co', ownerEmail: 'owner@bench.example' });
    const key = await createApiKey(deps, { accountId: account.id, name: 'bench', scopes: ['*'], rateLimitPerMinute: 1_000_000_000 });
    const raw = handle.sqlite!.raw;
    const rnd = new Random(options.seed ?? 1);
    const now = Date.now();
    raw.exec('BEGIN');
    const userIds = [owner!.id];
    const addUser = raw.prepare(
      `insert into users (account_id, email, email_lc, display_name, role, is_active, support_enabled, created_at, updated_at)
       values (?, ?, ?, ?, 'member', 1, 0, ?, ?) returning id`,
    );
    for (let i = 1; i < (options.users ?? 20); i++) {
      const email = `rep${i}@bench.example`;
      userIds.push(Number((addUser.get(account.id, email, email, `Rep ${i}`, now, now) as { id: number }).id));
    }
    const orgIds: number[] = [];
    const addOrg = raw.prepare('insert into orgs (account_id, name, name_lc, domain, created_at, updated_at) values (?, ?, ?, null, ?, ?) returning id');
    for (let i = 0; i < (options.orgs ?? 500); i++) {
      orgIds.push(Number((addOrg.get(account.id, `Customer ${i}`, `customer ${i}`, now, now) as { id: number }).id));
    }
    const addDeal = raw.prepare(
      `insert into deals (account_id, org_id, owner_user_id, title, title_lc, status, value_cents, currency, next_followup_at,
         lost_reason_code, lost_reason_label, closed_at, closed_by_user_id, last_activity_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < options.deals; i++) {
      const status = rnd.pick(STATUSES);
      const created = now - rnd.int(0, 720 * 24 * 60) * 60_000;
      const updated = created + Math.floor(rnd.next() * (now - created));
      const closed = status === 'won' || status === 'lost';
      const owner = rnd.pick(userIds);
      const title = `Deal ${i} ${rnd.token(6)}`;
      addDeal.run(
        account.id,
        rnd.pick(orgIds),
        owner,
        title,
        title.toLowerCase(),
        status,
        rnd.int(1, 5000) * 100,
        closed ? null : now + rnd.int(-30, 30) * DAY_MS,
        status === 'lost' ? 'price' : null,
        status === 'lost' ? 'Too expensive' : null,
        closed ? updated : null,
        closed ? owner : null,
        updated,
        created,
        updated,
      );
    }
    raw.exec('COMMIT');
    // Planner statistics, as a database that has lived a while would have them (PRAGMA optimize).
    raw.exec('ANALYZE');
    return { accountId: account.id, key: key.secret, deals: options.deals };
  } finally {
    await handle.close();
  }
}
